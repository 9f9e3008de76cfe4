import { createHash } from 'node:crypto';
import type { DeclineReason, PayinChannel } from '@paysign/contracts';
import type { CardDetails, CardField, CheckoutMethod, GatewayDecision, PaymentAttempt, FormGateway, Collection } from '../ports/payment-gateway.port';

/** The sandbox test cards (docs/sandbox.md): each number always has the same outcome. */
export const SANDBOX_TEST_CARDS: ReadonlyArray<{ number: string; outcome: 'paid' | DeclineReason }> = [
  { number: '4242424242424242', outcome: 'paid' },
  { number: '4000000000000002', outcome: 'card_declined' },
  { number: '4000000000009995', outcome: 'insufficient_funds' },
  { number: '4000000000000069', outcome: 'expired_card' },
  { number: '4000000000000127', outcome: 'incorrect_cvc' },
  { number: '4100000000000019', outcome: 'fraud_suspected' },
];

export const SANDBOX_TRANSFER_BANK = 'Paysign Sandbox Bank';

/**
 * The sandbox adapter: every channel, no money. Test cards decide card
 * outcomes; a bank transfer or a USSD payment succeeds when the customer
 * says it was made.
 */
export class SandboxGateway implements FormGateway {
  readonly kind = 'form';
  readonly name = 'sandbox';
  readonly channels: readonly PayinChannel[] = ['card', 'bank_transfer', 'ussd'];

  checkoutMethod(channel: PayinChannel, payin: Collection): CheckoutMethod {
    switch (channel) {
      case 'card':
        return { channel, testCards: SANDBOX_TEST_CARDS.map((card) => ({ number: groupDigits(card.number), outcome: card.outcome === 'paid' ? 'succeeds' : `declined: ${card.outcome}` })) };
      case 'bank_transfer':
        return { channel, bankName: SANDBOX_TRANSFER_BANK, accountNumber: virtualAccountNumber(payin), accountName: `Paysign / ${payin.reference}` };
      case 'ussd':
        return { channel, dialCode: `*7799*${virtualAccountNumber(payin).slice(-6)}#` };
    }
  }

  async attempt(_payin: Collection, attempt: PaymentAttempt, now: Date): Promise<GatewayDecision> {
    if (attempt.channel !== 'card') return { kind: 'paid' };
    const errors = cardErrors(attempt.card, now);
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    const number = attempt.card.number.replace(/[\s-]/g, '');
    const testCard = SANDBOX_TEST_CARDS.find((card) => card.number === number);
    if (!testCard) return { kind: 'invalid', errors: { cardNumber: 'This is a valid card number, but not a sandbox test card. Use one of the test cards listed on this page.' } };
    return testCard.outcome === 'paid' ? { kind: 'paid' } : { kind: 'declined', reason: testCard.outcome };
  }
}

/** The checks a real card form makes before asking the issuer; the messages say how to fix the field. */
function cardErrors(card: CardDetails, now: Date): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = {};
  const number = card.number.replace(/[\s-]/g, '');
  if (number === '') errors.cardNumber = 'Enter the card number.';
  else if (!/^[0-9]{12,19}$/.test(number)) errors.cardNumber = 'The card number must be 12 to 19 digits.';
  else if (!luhnValid(number)) errors.cardNumber = 'This card number is mistyped: its check digit is wrong.';
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2})$/.exec(card.expiry.trim());
  if (card.expiry.trim() === '') errors.cardExpiry = 'Enter the expiry date as MM/YY.';
  else if (!expiry) errors.cardExpiry = 'Enter the expiry date as MM/YY, such as 12/30.';
  else if (Date.UTC(2000 + Number(expiry[2]), Number(expiry[1]), 1) <= now.getTime()) errors.cardExpiry = 'This expiry date has passed. Check the date on the card.';
  if (card.cvc.trim() === '') errors.cardCvc = 'Enter the security code.';
  else if (!/^[0-9]{3,4}$/.test(card.cvc.trim())) errors.cardCvc = 'The security code is the 3 or 4 digits on the card.';
  return errors;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function groupDigits(number: string): string {
  return number.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A stable, made-up 10-digit account per payin, as a bank's virtual account would be. */
function virtualAccountNumber(payin: Collection): string {
  const digest = createHash('sha256').update(`${payin.merchantId}\0${payin.reference}`).digest();
  return `99${(digest.readUInt32BE(0) % 100_000_000).toString().padStart(8, '0')}`;
}
