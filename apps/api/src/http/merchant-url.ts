import { SCHEMAS, type FieldError } from '@paysign/contracts';

/** The create request's fields that hold a merchant's URL. */
export type MerchantUrlField = 'notifyUrl' | 'redirectUrl' | 'webhookUrl' | 'url';

/** A merchant URL as stored: its normalised form, or why it is refused. */
export type MerchantUrl = { url: string } | { error: FieldError };

const SCHEME = /^https?:\/\//i;
/** What a Location header carries byte for byte in every browser: visible ASCII, no space. */
const PLAIN_ASCII = /^[\x21-\x7e]+$/;
const EXAMPLES: Record<MerchantUrlField, string> = { notifyUrl: 'https://shop.example.com/hooks', redirectUrl: 'https://shop.example.com/done', webhookUrl: 'https://shop.example.com/hooks', url: 'https://shop.example.com/hooks' };

/**
 * A redirectUrl or notifyUrl in the one form the service stores, echoes and
 * sends: the WHATWG URL serialisation, with the host in punycode and the
 * path, query and fragment percent-encoded, so that it is plain ASCII and
 * fits a Location header. Refused, whatever the mode:
 *
 * - a backslash anywhere in the text as sent: WHATWG parsing reads it as a
 *   slash, so `https:\\evil.example` or `https://shop.example\@evil.example`
 *   would go to a host the merchant's own checks may never have seen;
 * - a user name or password (anything before `@` in the authority), which
 *   hides the real host: `https://shop.example:443@evil.example/` goes to
 *   evil.example. The raw text is checked, since the parser drops an empty one;
 * - what WHATWG cannot parse, such as a host with no punycode form.
 */
export function normaliseMerchantUrl(field: MerchantUrlField, raw: string): MerchantUrl {
  const refuse = (code: string, message: string): MerchantUrl => ({ error: { field, code, message } });
  if (raw.includes('\\')) return refuse('unsafe_url', `${field} must not contain a backslash; write the URL with forward slashes only, such as ${EXAMPLES[field]}.`);
  const scheme = SCHEME.exec(raw);
  if (!scheme) return refuse('format', `${field} must be an absolute http or https URL, such as ${EXAMPLES[field]} (http is accepted in sandbox mode only).`);
  const authority = /^[^/?#]*/.exec(raw.slice(scheme[0].length))?.[0] ?? '';
  if (authority.includes('@')) return refuse('unsafe_url', `${field} must not hold a user name or password (the part before @), which hides the host it leads to; send the URL without it.`);
  if (authority === '') return refuse('format', `${field} must name a host right after ${scheme[0]}, such as ${EXAMPLES[field]}.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('format', `${field} cannot be read as a URL; check its host (a host with no punycode form is refused), such as ${EXAMPLES[field]}.`);
  }
  const normalised = url.href;
  if (!isPlainAsciiUrl(normalised)) return refuse('format', `${field} cannot be written in plain ASCII; percent-encode it yourself and send it again.`);
  // Every merchant URL field of the contract has the same bound.
  const maxLength = SCHEMAS.CreatePayinRequest.properties.notifyUrl.maxLength;
  if (normalised.length > maxLength) {
    return refuse('max_length', `${field} is ${normalised.length} characters once normalised (host in punycode, the rest percent-encoded); it must be at most ${maxLength}.`);
  }
  return { url: normalised };
}

/** Whether a URL can be sent as a header as it is: a stored URL from before normalisation may not. */
export function isPlainAsciiUrl(text: string): boolean {
  return PLAIN_ASCII.test(text);
}
