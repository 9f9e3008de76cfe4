import { PaymentClient } from '../payment-client';
import { BASE_URL_OPTION, baseUrlFrom } from './base-url';
import type { CliIo } from './cli-io';
import { requiredFlag, type FlagValues } from './flags';

/** The flags of the commands that call the service through the SDK's client: its credential and address. */
export const CLIENT_OPTIONS = {
  'api-key': { type: 'string' },
  'secret-key': { type: 'string' },
  'merchant-id': { type: 'string' },
  'tenant-id': { type: 'string' },
  ...BASE_URL_OPTION,
} as const;

/** The SDK's client for the credential the flags (or PAYSIGN_* variables) give; every call is signed and retried as the SDK does. */
export function clientFromFlags(values: FlagValues, io: CliIo): PaymentClient {
  return new PaymentClient({
    baseUrl: baseUrlFrom(values, io),
    apiKey: requiredFlag(values['api-key'], '--api-key', io.env.PAYSIGN_API_KEY),
    secretKey: requiredFlag(values['secret-key'], '--secret-key', io.env.PAYSIGN_SECRET_KEY),
    merchantId: requiredFlag(values['merchant-id'], '--merchant-id', io.env.PAYSIGN_MERCHANT_ID),
    tenantId: requiredFlag(values['tenant-id'], '--tenant-id', io.env.PAYSIGN_TENANT_ID),
    fetch: (request) => io.fetch(request),
    nonce: io.randomUUID,
  });
}
