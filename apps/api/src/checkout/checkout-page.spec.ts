import { declineNotice } from './checkout-page';

describe('the notice of a decline with another try', () => {
  it.each([
    ['every method offered', ['card', 'bank_transfer', 'ussd'], 2, 'Your bank declined this card. Try another card, pay by transfer or pay with USSD. You have 2 attempts left.'],
    ['card and transfer', ['card', 'bank_transfer'], 2, 'Your bank declined this card. Try another card or pay by transfer. You have 2 attempts left.'],
    ['card alone, at the last try', ['card'], 1, 'Your bank declined this card. Try another card. This is your last attempt.'],
  ] as const)('names the other ways to pay: %s', (_name, offered, left, want) => {
    expect(declineNotice('card_declined', 'card', offered, left)).toBe(want);
  });

  it('asks for the transfer again, and says the last try is the last however the limit was lowered', () => {
    expect(declineNotice('transfer_not_received', 'bank_transfer', ['card', 'bank_transfer'], 0)).toBe('Your transfer has not arrived. Check the details and pay by transfer again or pay by card. This is your last attempt.');
  });
});
