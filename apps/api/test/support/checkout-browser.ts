// A browser as the checkout suites need one: a cookie jar of one, the page's
// CSRF field, and forms sent without following the 303.

export interface Browser {
  /** The page's HTML, its status and headers, and the CSRF value of its form. */
  open(url: string): Promise<{ status: number; html: string; headers: Headers; csrf: string | undefined }>;
  submit(url: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** The cookie the browser holds, as it sends it. */
  cookie(): string | undefined;
}

/** A cookie jar of one: what a browser keeps between the page and its form. */
export function browser(): Browser {
  let cookie: string | undefined;
  return {
    async open(url) {
      const response = await fetch(url, { redirect: 'manual' });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) cookie = setCookie.split(';')[0];
      const html = await response.text();
      return { status: response.status, html, headers: response.headers, csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] };
    },
    cookie: () => cookie,
    submit(url, fields, headers = {}) {
      return fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    },
  };
}

/** The sandbox's test cards (docs/sandbox.md), with any future expiry and any security code. */
export const CARD = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/34', cardCvc: '123' };
export const DECLINED_CARD = { ...CARD, cardNumber: '4000 0000 0000 0002' };
