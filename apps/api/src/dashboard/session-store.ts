import { toDate, type SqlClient } from '../db/sql-client';
import type { MemberRole } from './dashboard-roles';
import { newToken, tokenHash } from './dashboard-tokens';

export type SessionStage = 'second_factor' | 'enrol' | 'active';

/** A live session and its member, as each dashboard request reads it. */
export interface DashboardSession {
  tokenHash: string;
  stage: SessionStage;
  csrfToken: string;
  memberId: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: MemberRole;
  memberCreatedAt: Date;
  createdAt: Date;
  lastSeenAt: Date;
  absoluteExpiresAt: Date;
  freshUntil: Date | null;
  challenge: { value: string; purpose: string; expiresAt: Date } | null;
  hasTotp: boolean;
  passkeys: number;
}

type SessionRow = {
  token_hash: string;
  stage: SessionStage;
  csrf_token: string;
  member_id: string;
  merchant_id: string;
  merchant_name: string;
  email: string;
  role: MemberRole;
  member_created_at: Date | string;
  created_at: Date | string;
  last_seen_at: Date | string;
  absolute_expires_at: Date | string;
  fresh_until: Date | string | null;
  challenge: string | null;
  challenge_purpose: string | null;
  challenge_expires_at: Date | string | null;
  has_totp: boolean;
  passkeys: string | number;
};

/**
 * Sessions on the server, so that each can be ended at once: signing out,
 * "sign out everywhere", a member removed. The browser holds a 256-bit
 * token; the table holds its SHA-256.
 */
export class SessionStore {
  constructor(private readonly client: SqlClient) {}

  /** A new session for the member; the token goes in the cookie and is never stored. */
  async open(memberId: string, stage: SessionStage, at: { now: Date; absoluteSeconds: number; address: string; fresh: boolean; freshSeconds: number }): Promise<string> {
    const token = newToken();
    const freshUntil = at.fresh ? new Date(at.now.getTime() + at.freshSeconds * 1000).toISOString() : null;
    await this.client.query(
      'INSERT INTO dashboard_sessions (token_hash, member_id, stage, csrf_token, address, created_at, last_seen_at, absolute_expires_at, fresh_until) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8)',
      [tokenHash(token), memberId, stage, newToken(), at.address, at.now.toISOString(), new Date(at.now.getTime() + at.absoluteSeconds * 1000).toISOString(), freshUntil],
    );
    return token;
  }

  /** The session of `token`, if it has not ended, its member is not removed, and neither timeout has passed at `now`. */
  async live(token: string, now: Date, idleSeconds: number): Promise<DashboardSession | undefined> {
    const row = (
      await this.client.query<SessionRow>(
        `SELECT s.*, m.merchant_id, x.name AS merchant_name, m.email, m.role, m.created_at AS member_created_at,
                m.totp_secret_sealed IS NOT NULL AS has_totp,
                (SELECT count(*) FROM dashboard_passkeys p WHERE p.member_id = m.id) AS passkeys
           FROM dashboard_sessions s JOIN dashboard_members m ON m.id = s.member_id JOIN merchants x ON x.merchant_id = m.merchant_id
          WHERE s.token_hash = $1 AND s.ended_at IS NULL AND m.removed_at IS NULL
            AND s.absolute_expires_at > $2 AND s.last_seen_at > $3`,
        [tokenHash(token), now.toISOString(), new Date(now.getTime() - idleSeconds * 1000).toISOString()],
      )
    ).rows[0];
    return row && sessionOf(row);
  }

  /** Records activity; written at most once a minute per session, since the idle timeout counts in minutes. */
  async touch(session: DashboardSession, now: Date): Promise<void> {
    if (now.getTime() - session.lastSeenAt.getTime() < 60_000) return;
    await this.client.query('UPDATE dashboard_sessions SET last_seen_at = $2 WHERE token_hash = $1', [session.tokenHash, now.toISOString()]);
  }

  async advance(session: DashboardSession, stage: SessionStage, freshUntil: Date | null): Promise<void> {
    await this.client.query('UPDATE dashboard_sessions SET stage = $2, fresh_until = COALESCE($3::timestamptz, fresh_until) WHERE token_hash = $1', [session.tokenHash, stage, freshUntil?.toISOString() ?? null]);
  }

  async setChallenge(session: DashboardSession, challenge: { value: string; purpose: string; expiresAt: Date }): Promise<void> {
    await this.client.query('UPDATE dashboard_sessions SET challenge = $2, challenge_purpose = $3, challenge_expires_at = $4 WHERE token_hash = $1', [
      session.tokenHash,
      challenge.value,
      challenge.purpose,
      challenge.expiresAt.toISOString(),
    ]);
  }

  /** Takes the session's challenge for `purpose`, once: a second use of it finds none. */
  async takeChallenge(session: DashboardSession, purpose: string, now: Date): Promise<string | undefined> {
    const { rows } = await this.client.query<{ challenge: string }>(
      `UPDATE dashboard_sessions s SET challenge = NULL, challenge_purpose = NULL, challenge_expires_at = NULL
         FROM (SELECT token_hash, challenge FROM dashboard_sessions WHERE token_hash = $1 AND challenge_purpose = $2 AND challenge_expires_at > $3 FOR UPDATE) old
        WHERE s.token_hash = old.token_hash RETURNING old.challenge`,
      [session.tokenHash, purpose, now.toISOString()],
    );
    return rows[0]?.challenge;
  }

  async end(tokenHashValue: string, now: Date): Promise<void> {
    await this.client.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL', [tokenHashValue, now.toISOString()]);
  }

  async endAllOf(memberId: string, now: Date): Promise<number> {
    const { rows } = await this.client.query('UPDATE dashboard_sessions SET ended_at = $2 WHERE member_id = $1 AND ended_at IS NULL RETURNING token_hash', [memberId, now.toISOString()]);
    return rows.length;
  }

  /** A browser that completed a sign-in to the member: its cookie's token, which the lockout lets through. */
  async rememberDevice(memberId: string, now: Date): Promise<string> {
    const token = newToken();
    await this.client.query('INSERT INTO dashboard_devices (token_hash, member_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)', [tokenHash(token), memberId, now.toISOString()]);
    return token;
  }

  async isKnownDevice(token: string | undefined, memberId: string): Promise<boolean> {
    if (token === undefined) return false;
    const { rows } = await this.client.query('SELECT 1 FROM dashboard_devices WHERE token_hash = $1 AND member_id = $2', [tokenHash(token), memberId]);
    return rows.length === 1;
  }

  /** Counts a failed sign-in against the address's hour; resolves the hour's failures so far. */
  async addressFailure(address: string, now: Date): Promise<number> {
    const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
    const { rows } = await this.client.query<{ failures: number }>(
      'INSERT INTO dashboard_address_failures (address, hour, failures) VALUES ($1, $2, 1) ON CONFLICT (address, hour) DO UPDATE SET failures = dashboard_address_failures.failures + 1 RETURNING failures',
      [address, hour],
    );
    return rows[0]?.failures ?? 1;
  }

  async addressFailures(address: string, now: Date): Promise<number> {
    const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
    const { rows } = await this.client.query<{ failures: number }>('SELECT failures FROM dashboard_address_failures WHERE address = $1 AND hour = $2', [address, hour]);
    return rows[0]?.failures ?? 0;
  }
}

function sessionOf(row: SessionRow): DashboardSession {
  return {
    tokenHash: row.token_hash,
    stage: row.stage,
    csrfToken: row.csrf_token,
    memberId: row.member_id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    email: row.email,
    role: row.role,
    memberCreatedAt: toDate(row.member_created_at),
    createdAt: toDate(row.created_at),
    lastSeenAt: toDate(row.last_seen_at),
    absoluteExpiresAt: toDate(row.absolute_expires_at),
    freshUntil: row.fresh_until === null ? null : toDate(row.fresh_until),
    challenge: row.challenge === null || row.challenge_purpose === null || row.challenge_expires_at === null ? null : { value: row.challenge, purpose: row.challenge_purpose, expiresAt: toDate(row.challenge_expires_at) },
    hasTotp: row.has_totp,
    passkeys: Number(row.passkeys),
  };
}
