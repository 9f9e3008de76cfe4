import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { Public } from '../http/public.decorator';
import { DASHBOARD_ACCESS, type DashboardAccess } from './dashboard-access';
import { DashboardSessionGuard } from './dashboard-session.guard';


/**
 * A dashboard operation: never signed with an API key (so `Public` to the
 * signature check), and admitted by the session guard alone.
 */
export const DashboardRoute = (access: DashboardAccess) => applyDecorators(Public(), SetMetadata(DASHBOARD_ACCESS, access), UseGuards(DashboardSessionGuard));

/** A dashboard operation without a session: signing in, reading and accepting a link. */
export const DashboardOpenRoute = () => Public();
