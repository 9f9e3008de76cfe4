import type { ProviderDefinition } from '../provider-definition';
import { SandboxAccountNameProvider } from './sandbox-account-names';
import { SandboxGateway } from './sandbox-gateway';
import { SandboxPayoutTransfers } from './sandbox-payout-transfers';
import { SandboxRefunds } from './sandbox-refunds';

const SANDBOX_ID = 'sandbox';

/**
 * The sandbox: every port, no money. Configured in sandbox mode, and in
 * production only for the seams that name it (ACCOUNT_NAME_PROVIDER=sandbox,
 * the one production allows, with a warning).
 */
export const SANDBOX_PROVIDER: ProviderDefinition = {
  id: SANDBOX_ID,
  // Its transfers' table predates the wing and stays among the payouts' migrations (SANDBOX_PAYOUT_TRANSFERS), where it shipped.
  migrations: [],
  build({ config, client, storeClock, enquiryNames }) {
    const sandboxMode = config.mode === 'sandbox';
    // In production only the ports a seam selects: a production service never takes a payin or sends a payout through the sandbox.
    const serves = { gateway: sandboxMode || config.paymentGateway === SANDBOX_ID, payouts: sandboxMode || config.payouts.provider === SANDBOX_ID, accountNames: sandboxMode || config.accountNameProvider === SANDBOX_ID };
    if (!serves.gateway && !serves.payouts && !serves.accountNames) return undefined;
    // Names at dispatch come from where enquiries come from: a payout to an account enquired at a real provider's test mode is paid, as its enquiry promised.
    const namesOfEnquiries = { name: SANDBOX_ID, lookup: (query: Parameters<SandboxAccountNameProvider['lookup']>[0]) => enquiryNames().lookup(query) };
    return {
      id: SANDBOX_ID,
      // Refunds go with the gateway: a payin the sandbox took is refunded by it.
      ...(serves.gateway ? { gateway: new SandboxGateway(), refunds: new SandboxRefunds() } : {}),
      ...(serves.payouts ? { payouts: new SandboxPayoutTransfers(client, storeClock, namesOfEnquiries, config.payouts.sandboxDelayMs) } : {}),
      ...(serves.accountNames ? { accountNames: new SandboxAccountNameProvider() } : {}),
    };
  },
};
