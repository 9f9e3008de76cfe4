import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { normaliseMerchantUrl, type MerchantUrl, type MerchantUrlField } from '../http/merchant-url';
import { refusedRangeOf } from './refused-ranges';

/** Where webhooks may go. Production: public https receivers only. Sandbox, by default: http and loopback too. */
export interface TargetPolicy {
  allowLocalReceivers: boolean;
}

/** Resolves a host name to every address it has; tests replace it to play DNS tricks. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Injection token of the Resolver webhook delivery uses; tests play DNS tricks with their own. */
export const WebhookResolver = Symbol('WebhookResolver');

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Whether an address may receive webhooks: public unicast only, after
 * unwrapping IPv4-mapped IPv6 (::ffff:10.0.0.1 is 10.0.0.1). Loopback,
 * private, link-local, CGNAT, multicast, reserved and the rest are refused,
 * and so are the rows of REFUSED_RANGES; loopback is allowed for local
 * receivers in sandbox mode.
 */
export function addressProblem(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast') {
    const refused = refusedRangeOf(parsed);
    return refused === undefined ? undefined : `${address} is ${refused}, which webhooks are never sent to`;
  }
  if (range === 'loopback' && policy.allowLocalReceivers) return undefined;
  return `${address} is a ${range} address, which webhooks are never sent to`;
}

/** What can be said of a notifyUrl without DNS: scheme, credentials, and a literal address. Checked at payin creation and before each attempt. */
export function staticTargetProblem(rawUrl: string, policy: TargetPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'notifyUrl is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLocalReceivers)) {
    return policy.allowLocalReceivers ? 'notifyUrl must be an http or https URL' : 'notifyUrl must be an https URL';
  }
  if (url.username !== '' || url.password !== '') return 'notifyUrl must not hold a user name or password; authenticate webhooks by their signature';
  const host = literalHost(url);
  return host === undefined ? undefined : addressProblem(host, policy);
}

/**
 * The one address an attempt connects to: resolved once, every answer
 * checked, and the connection pinned to it, so that a second resolution
 * (DNS rebinding) can never swap in a private address between the check and
 * the connect.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy, resolve: Resolver): Promise<{ address: string; family: number } | { problem: string }> {
  const literal = literalHost(url);
  // The failure is wrapped rather than told apart by instanceof: an error from another realm (a VM context) is no instance of this one's Error.
  const resolved = literal !== undefined ? { answers: [{ address: literal, family: isIP(literal) }] } : await resolve(url.hostname).then((answers) => ({ answers }), (error: unknown) => ({ error }));
  if ('error' in resolved) return { problem: `${url.hostname} does not resolve: ${(resolved.error as { message?: unknown })?.message ?? String(resolved.error)}` };
  const { answers } = resolved;
  if (answers.length === 0) return { problem: `${url.hostname} has no address` };
  for (const answer of answers) {
    const problem = addressProblem(answer.address, policy);
    if (problem) return { problem: literal !== undefined ? problem : `${url.hostname} resolves to ${problem}` };
  }
  return answers[0] as { address: string; family: number };
}

function literalHost(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

/**
 * A merchant's URL as a create request gives it: normalised (see
 * normaliseMerchantUrl), https only in production, and, for a notifyUrl,
 * refused now when webhooks could never be sent to it (a private or
 * loopback literal address) rather than failing every attempt.
 */
export function checkedMerchantUrl(field: MerchantUrlField, raw: string, options: { production: boolean; allowLocalReceivers: boolean }): MerchantUrl {
  const result = normaliseMerchantUrl(field, raw);
  if ('error' in result) return result;
  if (options.production && !result.url.startsWith('https://')) return { error: { field, code: 'format', message: `${field} must be an https URL in production mode.` } };
  // The URLs events are sent to; a redirectUrl is the customer's browser's to follow.
  const problem = field === 'notifyUrl' || field === 'url' ? staticTargetProblem(result.url, { allowLocalReceivers: options.allowLocalReceivers }) : undefined;
  return problem ? { error: { field, code: 'target', message: `${problem}.` } } : result;
}
