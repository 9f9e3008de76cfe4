import type { MemberRole } from './dashboard-roles';
import type { SessionStage } from './session-store';

/** What a dashboard operation admits: its `x-roles`, `x-stages` and `x-fresh-factor` in openapi/dashboard-api.yaml. */
export interface DashboardAccess {
  /** The roles admitted; `any` admits every member. */
  roles: readonly MemberRole[] | 'any';
  /** The session stages admitted. Default: `active` alone. */
  stages?: readonly SessionStage[];
  /** Whether a second factor given in the last DASHBOARD_FRESH_FACTOR_SECONDS is needed. */
  freshFactor?: boolean;
}

export const DASHBOARD_ACCESS = 'paysignDashboardAccess';
