import type { DashboardComponents } from '@paysign/contracts';

export type Session = DashboardComponents['schemas']['Session'];
export type Role = DashboardComponents['schemas']['Role'];

/** The react-query key of GET /session; null data means signed out. */
export const SESSION_KEY = ['session'] as const;
