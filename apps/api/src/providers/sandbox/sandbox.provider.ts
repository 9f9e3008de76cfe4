import type { ProviderDefinition } from '../provider-definition';
import { SandboxAccountNameProvider } from './sandbox-account-names';
import { SandboxGateway } from './sandbox-gateway';
import { SandboxPayoutTransfers } from './sandbox-payout-transfers';

const SANDBOX_ID = 'sandbox';

/**
 * The sandbox: every port, no money. Configured in sandbox mode, and in
 * production only where a seam names it (ACCOUNT_NAME_PROVIDER=sandbox, the
 * one production allows, with a warning).
 */
export const SANDBOX_PROVIDER: ProviderDefinition = {
  id: SANDBOX_ID,
  // Its transfers' table predates the wing and stays among the payouts' migrations (SANDBOX_PAYOUT_TRANSFERS), where it shipped.
  migrations: [],
  build({ config, client, storeClock, enquiryNames }) {
    const selected = [config.accountNameProvider, config.paymentGateway, config.payouts.provider].includes(SANDBOX_ID);
    if (config.mode !== 'sandbox' && !selected) return undefined;
    // Names at dispatch come from where enquiries come from: a payout to an account enquired at a real provider's test mode is paid, as its enquiry promised.
    const namesOfEnquiries = { name: SANDBOX_ID, lookup: (query: Parameters<SandboxAccountNameProvider['lookup']>[0]) => enquiryNames().lookup(query) };
    return {
      id: SANDBOX_ID,
      gateway: new SandboxGateway(),
      payouts: new SandboxPayoutTransfers(client, storeClock, namesOfEnquiries, config.payouts.sandboxDelayMs),
      accountNames: new SandboxAccountNameProvider(),
    };
  },
};
