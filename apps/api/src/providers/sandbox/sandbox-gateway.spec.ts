import type { Collection } from '../ports/payment-gateway.port';
import { SANDBOX_TEST_CARDS, SandboxGateway, luhnValid } from './sandbox-gateway';

const payin = { merchantId: 'MCH-A', reference: 'order-1042' } as Collection;
const NOW = new Date('2026-11-22T12:00:00Z');
const card = (number: string, expiry = '12/30', cvc = '123') => ({ channel: 'card' as const, card: { number, expiry, cvc } });

describe('the sandbox gateway', () => {
  const gateway = new SandboxGateway();

  it.each(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome] as const))('answers test card %s with %s', async (number, outcome) => {
    expect(luhnValid(number)).toBe(true);
    expect(await gateway.attempt(payin, card(number.replace(/(.{4})/g, '$1 ').trim()), NOW)).toEqual(outcome === 'paid' ? { kind: 'paid' } : { kind: 'declined', reason: outcome });
  });

  it('refuses what a real card form refuses, naming each field, before any outcome', async () => {
    expect(await gateway.attempt(payin, card('4242424242424241', '10/26', '12'), NOW)).toEqual({
      kind: 'invalid',
      errors: {
        cardNumber: 'This card number is mistyped: its check digit is wrong.',
        cardExpiry: 'This expiry date has passed. Check the date on the card.',
        cardCvc: 'The security code is the 3 or 4 digits on the card.',
      },
    });
    expect(await gateway.attempt(payin, card('', '', ''), NOW)).toMatchObject({ kind: 'invalid', errors: { cardNumber: 'Enter the card number.', cardExpiry: 'Enter the expiry date as MM/YY.', cardCvc: 'Enter the security code.' } });
    expect(await gateway.attempt(payin, card('4242424242424242', '13/30'), NOW)).toMatchObject({ kind: 'invalid', errors: { cardExpiry: 'Enter the expiry date as MM/YY, such as 12/30.' } });
  });

  it('accepts a card until the end of its expiry month', async () => {
    expect(await gateway.attempt(payin, card('4242424242424242', '11/26'), new Date('2026-11-30T23:59:59Z'))).toEqual({ kind: 'paid' });
    expect((await gateway.attempt(payin, card('4242424242424242', '11/26'), new Date('2026-12-01T00:00:00Z'))).kind).toBe('invalid');
  });

  it('refuses a valid number that is not a test card', async () => {
    expect(await gateway.attempt(payin, card('5555555555554444'), NOW)).toMatchObject({ kind: 'invalid', errors: { cardNumber: expect.stringContaining('not a sandbox test card') } });
  });

  it('shows a stable 10-digit transfer account and USSD code per payin', () => {
    const transfer = gateway.checkoutMethod('bank_transfer', payin);
    expect(transfer).toMatchObject({ channel: 'bank_transfer', bankName: 'Paysign Sandbox Bank', accountNumber: expect.stringMatching(/^99[0-9]{8}$/) });
    expect(gateway.checkoutMethod('bank_transfer', payin)).toEqual(transfer);
    expect(gateway.checkoutMethod('ussd', payin)).toMatchObject({ dialCode: expect.stringMatching(/^\*7799\*[0-9]{6}#$/) });
  });
});
