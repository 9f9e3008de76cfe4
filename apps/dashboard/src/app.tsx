import { Route, Routes } from 'react-router';
import { AppLayout, PublicLayout } from './components/app-layout';
import { ApprovalsPage } from './pages/approvals/approvals-page';
import { BalancePage } from './pages/balance/balance-page';
import { EnrolPage } from './pages/enrol-page';
import { HomePage } from './pages/home-page';
import { KeysPage } from './pages/keys/keys-page';
import { NotFoundPage } from './pages/not-found-page';
import { BatchPage } from './pages/payout-batches/batch-page';
import { BatchesPage } from './pages/payout-batches/batches-page';
import { NewBatchPage } from './pages/payout-batches/new-batch-page';
import { NewPayoutPage } from './pages/payouts/new-payout-page';
import { PayoutPage } from './pages/payouts/payout-page';
import { PayoutsPage } from './pages/payouts/payouts-page';
import { PayinPage } from './pages/payins/payin-page';
import { PayinsPage } from './pages/payins/payins-page';
import { SecurityLogPage } from './pages/security-log-page';
import { SecurityPage } from './pages/security-page';
import { SettlementPage } from './pages/settlements/settlement-page';
import { SettlementsPage } from './pages/settlements/settlements-page';
import { SignInPage } from './pages/sign-in-page';
import { TeamPage } from './pages/team-page';
import { EndpointPage } from './pages/webhook-endpoints/endpoint-page';
import { EndpointsPage } from './pages/webhook-endpoints/endpoints-page';
import { WelcomePage } from './pages/welcome-page';
import { RequireCapability } from './session/require-capability';
import { RequireStage } from './session/require-stage';

/** The dashboard's routes, under the router's basename /payment/dashboard. */
export function App() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path="welcome" element={<WelcomePage />} />
        <Route
          path="sign-in"
          element={
            <RequireStage stages={['signed_out', 'second_factor']}>
              <SignInPage />
            </RequireStage>
          }
        />
        <Route
          path="enrol"
          element={
            <RequireStage stages={['enrol', 'active']}>
              <EnrolPage />
            </RequireStage>
          }
        />
      </Route>
      <Route
        element={
          <RequireStage stages={['active']}>
            <AppLayout />
          </RequireStage>
        }
      >
        <Route index element={<RequireCapability capability="overview"><HomePage /></RequireCapability>} />
        <Route path="balance" element={<RequireCapability capability="readBalance"><BalancePage /></RequireCapability>} />
        <Route path="settlements" element={<RequireCapability capability="readSettlements"><SettlementsPage /></RequireCapability>} />
        <Route path="settlements/:id" element={<RequireCapability capability="readSettlements"><SettlementPage /></RequireCapability>} />
        <Route path="keys" element={<RequireCapability capability="readKeys"><KeysPage /></RequireCapability>} />
        <Route path="webhook-endpoints" element={<RequireCapability capability="readEndpoints"><EndpointsPage /></RequireCapability>} />
        <Route path="webhook-endpoints/:id" element={<RequireCapability capability="readEndpoints"><EndpointPage /></RequireCapability>} />
        <Route path="team" element={<RequireCapability capability="readTeam"><TeamPage /></RequireCapability>} />
        <Route path="security-log" element={<RequireCapability capability="readSecurityLog"><SecurityLogPage /></RequireCapability>} />
        <Route path="payouts" element={<RequireCapability capability="readPayouts"><PayoutsPage /></RequireCapability>} />
        <Route path="payouts/new" element={<RequireCapability capability="makePayouts"><NewPayoutPage /></RequireCapability>} />
        <Route path="payouts/:reference" element={<RequireCapability capability="readPayouts"><PayoutPage /></RequireCapability>} />
        <Route path="payout-batches" element={<RequireCapability capability="readPayouts"><BatchesPage /></RequireCapability>} />
        <Route path="payout-batches/new" element={<RequireCapability capability="makePayouts"><NewBatchPage /></RequireCapability>} />
        <Route path="payout-batches/:reference" element={<RequireCapability capability="readPayouts"><BatchPage /></RequireCapability>} />
        <Route path="payins" element={<RequireCapability capability="readPayins"><PayinsPage /></RequireCapability>} />
        <Route path="payins/:reference" element={<RequireCapability capability="readPayins"><PayinPage /></RequireCapability>} />
        <Route path="approvals" element={<RequireCapability capability="approve"><ApprovalsPage /></RequireCapability>} />
        <Route path="security" element={<SecurityPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
