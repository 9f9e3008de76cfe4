import { Injectable } from '@nestjs/common';
import { MerchantStore, type AuditSubject } from '../merchants/merchant-store';

/** Who did something in the dashboard, and from where. */
export interface DashboardActor {
  memberId: string;
  email: string;
  merchantId: string;
  address: string;
}

/**
 * The security log's dashboard lines: the operators' audit trail
 * (merchant_audit, append-only), with the member's email as the actor and
 * the request's address.
 */
@Injectable()
export class DashboardAudit {
  constructor(private readonly merchantStore: MerchantStore) {}

  async record(actor: DashboardActor, action: string, about: Omit<AuditSubject, 'merchantId'>): Promise<void> {
    await this.merchantStore.audit(this.merchantStore.client, this.actorOf(actor), action, { merchantId: actor.merchantId, ...about, detail: { memberId: actor.memberId, ...about.detail } });
  }

  /** The Actor a change made through the merchants' own stores is recorded under. */
  actorOf(actor: DashboardActor) {
    return { actor: actor.email, channel: 'dashboard' as const, address: actor.address };
  }
}
