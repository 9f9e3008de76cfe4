import type { PaystackSettings } from '../../config/app-config';
import { ProviderCircuits } from '../../upstream/provider-circuits';
import { UpstreamClient } from '../../upstream/upstream-client';
import type { ProviderContext, ProviderDefinition } from '../provider-definition';
import { PaystackAccountNameProvider } from './paystack-account-names';
import { PaystackApi } from './paystack-api';
import { PaystackGateway } from './paystack-gateway';
import { PAYSTACK_RECIPIENTS, PAYSTACK_REFUNDS } from './paystack.migrations';
import { PaystackPayoutTransfers } from './paystack-payout-transfers';
import { PaystackRecords } from './paystack-records';
import { PaystackRefunds, SqlPaystackRefundIds } from './paystack-refunds';
import { PaystackWebhooks } from './paystack-webhooks';

const PAYSTACK_ID = 'paystack';

/**
 * Paystack behind every port: configured wherever PAYSTACK_SECRET_KEY is
 * set, selected or not, so that what was sent through it is still settled
 * through it after another provider is selected.
 */
export const PAYSTACK_PROVIDER: ProviderDefinition = {
  id: PAYSTACK_ID,
  migrations: [PAYSTACK_RECIPIENTS, PAYSTACK_REFUNDS],
  build(context) {
    const settings = context.config.paystack;
    if (!settings) return undefined;
    const api = paystackApi(context, settings);
    return {
      id: PAYSTACK_ID,
      gateway: new PaystackGateway(api),
      payouts: new PaystackPayoutTransfers(api, context.client, context.logger),
      refunds: new PaystackRefunds(api, context.logger, new SqlPaystackRefundIds(context.client)),
      accountNames: new PaystackAccountNameProvider(api),
      webhooks: new PaystackWebhooks(api),
      records: new PaystackRecords(api),
      // Degraded while any kind of call's circuit is open; a bank's own open circuit is that bank's state, not the provider's.
      health: () => (api.circuitState === 'closed' ? 'up' : 'degraded'),
    };
  },
};

/** Paystack's API on its own client: its timeout, retries, circuits and metrics; the secret key only in the authorization header. */
function paystackApi({ config, metrics, logger, clock }: ProviderContext, settings: PaystackSettings): PaystackApi {
  const client = new UpstreamClient({
    provider: PAYSTACK_ID,
    baseUrl: settings.baseUrl,
    headers: { authorization: `Bearer ${settings.secretKey}` },
    timeoutMs: config.providerTimeoutMs,
    retries: config.providerRetries,
    circuits: new ProviderCircuits(config.providerCircuit, clock),
    metrics,
    logger,
  });
  return new PaystackApi(client, settings.secretKey, settings.baseUrl.startsWith('http:'));
}
