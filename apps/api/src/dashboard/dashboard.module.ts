import { Module } from '@nestjs/common';
import { SqlClient } from '../db/sql-client';
import { EventsModule } from '../events/events.module';
import { LedgerModule } from '../ledger/ledger.module';
import { PayinsModule } from '../payins/payins.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { RefundsModule } from '../refunds/refunds.module';
import { ReportsModule } from '../reports/reports.module';
import { SettlementsModule } from '../settlements/settlements.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AccountsController } from './accounts.controller';
import { ApprovalSubjects } from './approval-subjects';
import { ApprovalsController } from './approvals.controller';
import { BatchFileCheck } from './batch-file-check';
import { MemberEnquiryAllowance } from './member-enquiry-allowance';
import { DashboardBalanceController } from './balance.controller';
import { DashboardAppController } from './dashboard-app.controller';
import { DashboardAudit } from './dashboard-audit';
import { DashboardSessionGuard } from './dashboard-session.guard';
import { EndpointsController } from './endpoints.controller';
import { ExportsController } from './exports.controller';
import { FactorsController } from './factors.controller';
import { InvitationMailer } from './invitation-mailer';
import { KeysController } from './keys.controller';
import { LinksController } from './links.controller';
import { MemberStore } from './member-store';
import { OverviewController } from './overview.controller';
import { DashboardPayoutBatchesController } from './payout-batches.controller';
import { DashboardPayoutsController } from './payouts.controller';
import { DashboardPayinsController } from './payins.controller';
import { SecurityLogController } from './security-log.controller';
import { SessionController } from './session.controller';
import { SessionStore } from './session-store';
import { DashboardSettlementsController } from './settlements.controller';
import { SignInService } from './sign-in.service';
import { TeamController } from './team.controller';

/** The merchant dashboard: its app, and its API under /payment/dashboard/api, authenticated by session (docs/dashboard.md). */
@Module({
  imports: [EventsModule, LedgerModule, PayoutsModule, SettlementsModule, PayinsModule, RefundsModule, ReportsModule, WebhooksModule],
  controllers: [SessionController, LinksController, FactorsController, OverviewController, KeysController, EndpointsController, TeamController, SecurityLogController, ApprovalsController, AccountsController, DashboardPayinsController, ExportsController, DashboardPayoutsController, DashboardPayoutBatchesController, DashboardBalanceController, DashboardSettlementsController, DashboardAppController],
  providers: [
    { provide: MemberStore, useFactory: (client: SqlClient) => new MemberStore(client), inject: [SqlClient] },
    { provide: SessionStore, useFactory: (client: SqlClient) => new SessionStore(client), inject: [SqlClient] },
    SignInService,
    DashboardAudit,
    DashboardSessionGuard,
    InvitationMailer,
    ApprovalSubjects,
    BatchFileCheck,
    MemberEnquiryAllowance,
  ],
})
export class DashboardModule {}
