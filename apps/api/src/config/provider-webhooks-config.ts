import { BlockList, isIP } from 'node:net';
import { envValues, type Env } from './env-values';

export interface ProviderWebhookSettings {
  /** PROVIDER_WEBHOOK_ALLOWED_ADDRESSES: the only addresses the providers' webhooks are taken from, when set (the provider's documented source addresses); empty, any address. */
  allowedAddresses: readonly string[];
  /** The largest webhook body taken, by its Content-Length, before it is read: providers' events are a few KiB. */
  bodyLimitBytes: number;
  /** Webhook requests per client address per minute; an address on the allow-list is not limited. */
  perAddressPerMinute: number;
}

/** The provider webhook route's guards: who may call it, how often, and how large a body it reads. */
export function readProviderWebhooks(env: Env, problems: string[], { bodyLimitBytes }: { bodyLimitBytes: number }): ProviderWebhookSettings {
  const { int } = envValues(env, problems);
  const allowedAddresses = (env.PROVIDER_WEBHOOK_ALLOWED_ADDRESSES ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const invalid = allowedAddresses.filter((address) => addressRule(address) === undefined);
  if (invalid.length > 0) problems.push(`PROVIDER_WEBHOOK_ALLOWED_ADDRESSES must be comma-separated IP addresses or CIDR ranges, such as 52.31.139.75,52.49.173.169,52.214.14.220 (Paystack's); got ${invalid.join(', ')}`);
  return {
    allowedAddresses,
    bodyLimitBytes: int('PROVIDER_WEBHOOK_BODY_LIMIT_BYTES', Math.min(32_768, bodyLimitBytes), 1024, bodyLimitBytes),
    perAddressPerMinute: int('RATE_LIMIT_PROVIDER_WEBHOOKS_PER_ADDRESS_PER_MINUTE', 1200, 1, 1_000_000),
  };
}

/** The allow-list as a BlockList to check addresses against; undefined when none is set. */
export function providerWebhookAllowList(settings: ProviderWebhookSettings): BlockList | undefined {
  if (settings.allowedAddresses.length === 0) return undefined;
  const list = new BlockList();
  for (const address of settings.allowedAddresses) {
    const rule = addressRule(address);
    if (rule?.prefix === undefined) list.addAddress(rule?.address ?? address, rule?.family);
    else list.addSubnet(rule.address, rule.prefix, rule.family);
  }
  return list;
}

function addressRule(text: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  const prefix = /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family } : undefined;
}
