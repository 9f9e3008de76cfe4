// The money-moving requests bench:server's --money and --ablate --money send,
// and the funds and enquiry they need: payin creation, payouts of ₦100 to the
// enquired account of the service under test from a balance funded for all of
// them, and refunds of ₦1 taking turns over the refundable payins made
// successful: the refunds of one payin queue on its lock, so one payin alone
// would measure the busiest payin's rate, not the service's.
import type { PacedRequest } from './paced-load';
import { signed } from './service-process';

/** The payins the refunds take turns over. */
export const REFUNDABLE_PAYINS = 100;

export interface MoneyPaths {
  payinCreate: () => PacedRequest;
  /** Needs `fundAndEnquire` first: it names the enquiry that makes. */
  payoutCreate: () => PacedRequest;
  /** Needs `fundAndEnquire` first, with its refundable payins. */
  refundCreate: () => PacedRequest;
  /** Funds the merchant's balance with ₦1,000,000,000, enquires the payouts' account, and makes `refundablePayins` successful payins of ₦100,000. */
  fundAndEnquire: (url: string, refundablePayins?: number) => Promise<void>;
}

export function moneyPaths(): MoneyPaths {
  let enquiryId = '';
  const fundAndEnquire = async (url: string, refundablePayins = REFUNDABLE_PAYINS) => {
    const send = async (requestPath: string, body: string) => {
      const request = signed('POST', requestPath, body)();
      const response = await fetch(`${url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
      if (!response.ok) throw new Error(`POST ${requestPath} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    };
    await send('/payment/api/payins', '{"amount":1000000000,"currency":"NGN","customerEmail":"ada@example.com","reference":"bench-funds"}');
    await send('/payment/api/payins/bench-funds/simulate', '{"outcome":"successful"}');
    enquiryId = (await send('/payment/merchant-api/account/inquiry', '{"bankCode":"058","accountNumber":"0123456785"}')).enquiryId as string;
    for (let i = 0; i < refundablePayins; i++) {
      await send('/payment/api/payins', `{"amount":100000,"currency":"NGN","customerEmail":"ada@example.com","reference":"bench-refundable-${i}"}`);
      await send(`/payment/api/payins/bench-refundable-${i}/simulate`, '{"outcome":"successful"}');
    }
  };
  let refunds = 0;
  return {
    payinCreate: signed('POST', '/payment/api/payins', '{"amount":1500.50,"currency":"NGN","customerEmail":"ada@example.com","reference":"bench-{unique}"}'),
    payoutCreate: () => signed('POST', '/payment/api/payouts', `{"amount":100,"currency":"NGN","enquiryId":"${enquiryId}","narration":"Bench","reference":"bench-{unique}"}`)(),
    refundCreate: () => signed('POST', '/payment/api/refunds', `{"amount":1,"payinReference":"bench-refundable-${refunds++ % REFUNDABLE_PAYINS}","reference":"bench-refund-{unique}"}`)(),
    fundAndEnquire,
  };
}
