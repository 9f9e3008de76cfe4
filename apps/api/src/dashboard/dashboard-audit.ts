import { Injectable } from '@nestjs/common';
import type { SqlQueryable } from '../db/sql-client';
import { MerchantStore, type AuditSubject } from '../merchants/merchant-store';
import type { DashboardSession } from './session-store';

/** Who did something in the dashboard, and from where. */
export interface DashboardActor {
  memberId: string;
  email: string;
  merchantId: string;
  address: string;
}

/** The member of a session, acting from `address`. */
export const actorOf = (session: DashboardSession, address: string): DashboardActor => ({ memberId: session.memberId, email: session.email, merchantId: session.merchantId, address });

/** An account number as the security log keeps it: its last 4 digits, enough to tell accounts apart, too few to pay one. */
export const maskedAccountNumber = (accountNumber: string): string => `******${accountNumber.slice(-4)}`;

/**
 * The security log's dashboard lines: the operators' audit trail
 * (merchant_audit, append-only), with the member's email as the actor and
 * the request's address.
 */
@Injectable()
export class DashboardAudit {
  constructor(private readonly merchantStore: MerchantStore) {}

  /** Writes the line, on `tx` when it belongs to a change, so that the two commit together. */
  async record(actor: DashboardActor, action: string, about: Omit<AuditSubject, 'merchantId'>, tx: SqlQueryable = this.merchantStore.client): Promise<void> {
    await this.merchantStore.audit(tx, this.actorOf(actor), action, { merchantId: actor.merchantId, ...about, detail: { memberId: actor.memberId, ...about.detail } });
  }

  /** The Actor a change made through the merchants' own stores is recorded under. */
  actorOf(actor: DashboardActor) {
    return { actor: actor.email, channel: 'dashboard' as const, address: actor.address };
  }
}
