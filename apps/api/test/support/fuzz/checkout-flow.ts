// A customer's way through the hosted checkout, fuzzed at every step: a
// payin created with odd redirect URLs and texts, its page opened with odd
// headers, and its form sent with odd fields, cookies and encodings.
import fc from 'fast-check';
import { signingHeaders } from './operation-requests';
import { headerValue, percentEncode, rawUtf8 } from './request-parts';
import { oddEmail, oddText, oddUrl } from './odd-values';
import type { RawResponse } from './raw-request';
import type { ServiceUnderFuzz } from './service-under-fuzz';

const SANDBOX_CARDS = ['4242 4242 4242 4242', '4242424242424242', '4000000000000002', '4000000000009995', '4000000000000069', '4000000000000127', '4242-4242-4242-4241', '4111111111111111'];

export interface CheckoutFlowPlan {
  /** The create request's optional fields, as JS values; absent ones are left out. */
  payin: { redirectUrl?: string; notifyUrl?: string; narration?: string; customerName?: string; customerEmail: string; gateway?: string };
  open: { query: string; headers: Array<readonly [string, string]> };
  submit: {
    /** The csrf field: the page's, none, or another value. */
    csrf: 'from the page' | 'missing' | { value: string };
    cookie: 'from the page' | 'missing' | { value: string };
    fields: Array<readonly [string, string]>;
    plusForSpace: boolean;
    contentType: string;
    secFetchSite?: string;
  };
  /** Sends the form a second time, as a double click or the back button does. */
  again: boolean;
}

/** Mostly a plain value, sometimes an odd one, sometimes none: one odd field at a time gets furthest. */
const mostly = <T>(plain: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: odd }, { weight: 1, arbitrary: fc.constant(undefined) });

export const checkoutFlowPlan: fc.Arbitrary<CheckoutFlowPlan> = fc.record({
  payin: fc.record({
    redirectUrl: fc.oneof({ weight: 3, arbitrary: fc.constant('https://shop.example.com/done?cart=1#top') }, { weight: 4, arbitrary: oddUrl }, { weight: 1, arbitrary: fc.constant(undefined) }),
    notifyUrl: mostly(fc.constant('https://hooks.fuzz.invalid/payins'), oddUrl),
    narration: mostly(fc.constant('Order <b>1042</b> & "rice"'), oddText),
    customerName: mostly(fc.constant('Adaeze Nwosu'), oddText),
    customerEmail: fc.oneof({ weight: 6, arbitrary: fc.constant('ada@example.com') }, { weight: 1, arbitrary: oddEmail }),
    gateway: mostly(fc.constantFrom('card', 'bank_transfer', 'ussd'), fc.constantFrom('CARD', '', 'crypto')),
  }),
  open: fc.record({
    query: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: oddText.map((t) => `?${percentEncode(t)}`) }),
    headers: fc.oneof({ weight: 4, arbitrary: fc.constant<Array<readonly [string, string]>>([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom('Cookie', 'Accept', 'Accept-Language', 'Sec-Fetch-Site', 'If-None-Match'), headerValue), { maxLength: 2 }) }),
  }),
  submit: fc.record({
    csrf: fc.oneof({ weight: 10, arbitrary: fc.constant('from the page' as const) }, { weight: 1, arbitrary: fc.constant('missing' as const) }, { weight: 1, arbitrary: oddText.map((value) => ({ value })) }),
    cookie: fc.oneof({ weight: 10, arbitrary: fc.constant('from the page' as const) }, { weight: 1, arbitrary: fc.constant('missing' as const) }, { weight: 1, arbitrary: headerValue.map((value) => ({ value })) }),
    fields: fc
      .tuple(
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom('pay_card', 'confirm_transfer', 'confirm_ussd', 'cancel') }, { weight: 1, arbitrary: oddText }),
        mostly(fc.constantFrom(...SANDBOX_CARDS), oddText),
        mostly(fc.constantFrom('12/34', '12 / 2034', '01/20', '13/99', '00/00', '1234'), oddText),
        mostly(fc.constantFrom('123', '1234', '12', 'abc'), oddText),
        fc.oneof({ weight: 6, arbitrary: fc.constant<Array<[string, string]>>([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom('action', 'csrf', 'cardNumber', 'amount', 'status'), oddText), oddText), { minLength: 1, maxLength: 2 }) }),
      )
      .map(([action, cardNumber, cardExpiry, cardCvc, extra]) => [
        ['action', action] as const,
        ...(cardNumber === undefined ? [] : [['cardNumber', cardNumber] as const]),
        ...(cardExpiry === undefined ? [] : [['cardExpiry', cardExpiry] as const]),
        ...(cardCvc === undefined ? [] : [['cardCvc', cardCvc] as const]),
        ...extra,
      ]),
    plusForSpace: fc.boolean(),
    contentType: fc.oneof(
      { weight: 10, arbitrary: fc.constant('application/x-www-form-urlencoded') },
      { weight: 1, arbitrary: fc.constantFrom('application/x-www-form-urlencoded; charset=utf-8', 'APPLICATION/X-WWW-FORM-URLENCODED', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', '') },
    ),
    secFetchSite: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none', '') }),
  }),
  again: fc.boolean(),
});

/** Runs one flow against the service; every answer is judged by the service's exchange. */
export async function runCheckoutFlow(service: ServiceUnderFuzz, plan: CheckoutFlowPlan, reference: string): Promise<void> {
  const body = JSON.stringify({ amount: 1500.5, currency: 'NGN', reference, ...plan.payin });
  const path = '/payment/api/payins';
  const bytes = Buffer.from(body);
  const signed = signingHeaders({ kind: 'signed', merchant: 'A' }, { method: 'POST', target: path, body: bytes, nowSeconds: service.nowSeconds() });
  const created = await service.exchange(
    { method: 'POST', target: path, headers: [['Host', service.host], ['Content-Type', 'application/json'], ['Content-Length', String(bytes.length)], ...signed], body: bytes },
    { htmlErrors: false, label: 'checkout flow: create' },
  );
  if (created?.status !== 201) return;
  const checkout = new URL((JSON.parse(created.body.toString('utf8')) as { checkoutUrl: string }).checkoutUrl).pathname;

  const page = await service.exchange({ method: 'GET', target: `${checkout}${plan.open.query}`, headers: [['Host', service.host], ...plan.open.headers] }, { htmlErrors: true, label: 'checkout flow: open' });
  const { csrf, cookie } = formSecretsOf(page);
  const { submit } = plan;
  const fields = [...submit.fields];
  if (submit.csrf === 'from the page' && csrf) fields.unshift(['csrf', csrf]);
  if (typeof submit.csrf === 'object') fields.unshift(['csrf', submit.csrf.value]);
  const encode = (text: string) => (submit.plusForSpace ? percentEncode(text, /[A-Za-z0-9._~ -]/).replace(/ /g, '+') : percentEncode(text));
  const form = Buffer.from(fields.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'), 'latin1');
  const headers: Array<readonly [string, string]> = [['Host', service.host], ['Content-Type', submit.contentType], ['Content-Length', String(form.length)]];
  if (submit.cookie === 'from the page' && cookie) headers.push(['Cookie', cookie]);
  if (typeof submit.cookie === 'object') headers.push(['Cookie', rawUtf8(submit.cookie.value)]);
  if (submit.secFetchSite !== undefined) headers.push(['Sec-Fetch-Site', submit.secFetchSite]);
  for (let i = 0; i < (plan.again ? 2 : 1); i += 1) await service.exchange({ method: 'POST', target: checkout, headers, body: form }, { htmlErrors: true, label: 'checkout flow: submit' });
}

function formSecretsOf(page: RawResponse | undefined): { csrf?: string; cookie?: string } {
  const html = page?.body.toString('utf8') ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page?.headers.get('set-cookie')?.[0]?.split(';')[0];
  return { ...(csrf ? { csrf } : {}), ...(cookie ? { cookie } : {}) };
}
