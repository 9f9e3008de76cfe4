import type { DashboardComponents } from '@paysign/contracts';
import type { DashboardSession } from './session-store';

type Session = DashboardComponents['schemas']['Session'];

/** The contract's Session: who is signed in, where, and until when. */
export function sessionView(session: DashboardSession, idleSeconds: number): Session {
  const idleEnds = session.lastSeenAt.getTime() + idleSeconds * 1000;
  return {
    stage: session.stage,
    member: { id: session.memberId, email: session.email, role: session.role, createdAt: session.memberCreatedAt.toISOString() },
    merchant: { merchantId: session.merchantId, name: session.merchantName },
    csrfToken: session.csrfToken,
    factors: { totp: session.hasTotp, passkeys: session.passkeys },
    freshFactorUntil: session.freshUntil?.toISOString() ?? null,
    expiresAt: new Date(Math.min(idleEnds, session.absoluteExpiresAt.getTime())).toISOString(),
  };
}
