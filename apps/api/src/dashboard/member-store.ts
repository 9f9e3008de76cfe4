import { toDate, type SqlClient, type SqlQueryable } from '../db/sql-client';
import type { MemberRole } from './dashboard-roles';
import { newMemberId, tokenHash } from './dashboard-tokens';

/** A member of a merchant's team, as the dashboard reads one: never a password hash or a secret. */
export interface Member {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
}

export interface MemberCredentials extends Member {
  passwordHash: string;
  totpSecretSealed: string | null;
  totpPendingSealed: string | null;
  totpLastStep: number | null;
  failedSignIns: number;
  lockedUntil: Date | null;
}

export interface StoredPasskey {
  id: string;
  memberId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface Link {
  kind: 'setup' | 'invitation';
  merchantId: string;
  merchantName: string;
  email: string;
  role: MemberRole;
  createdBy: string;
  expiresAt: Date;
}

type MemberRow = {
  id: string;
  merchant_id: string;
  merchant_name: string;
  email: string;
  role: MemberRole;
  created_at: Date | string;
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_last_step: string | number | null;
  failed_sign_ins: number;
  locked_until: Date | string | null;
};

const MEMBER_SELECT = `SELECT m.*, x.name AS merchant_name FROM dashboard_members m JOIN merchants x ON x.merchant_id = m.merchant_id`;

function memberOf(row: MemberRow): MemberCredentials {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    email: row.email,
    role: row.role,
    createdAt: toDate(row.created_at),
    passwordHash: row.password_hash,
    totpSecretSealed: row.totp_secret_sealed,
    totpPendingSealed: row.totp_pending_sealed,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    failedSignIns: row.failed_sign_ins,
    lockedUntil: row.locked_until === null ? null : toDate(row.locked_until),
  };
}

/** Strips what only sign-in reads. */
export const publicMember = (m: MemberCredentials | Member): Member => ({ id: m.id, merchantId: m.merchantId, merchantName: m.merchantName, email: m.email, role: m.role, createdAt: m.createdAt });

/** Members, their passkeys, and the one-time links that make members, in PostgreSQL. */
export class MemberStore {
  constructor(readonly client: SqlClient) {}

  async byEmail(email: string, db: SqlQueryable = this.client): Promise<MemberCredentials | undefined> {
    const row = (await db.query<MemberRow>(`${MEMBER_SELECT} WHERE lower(m.email) = lower($1) AND m.removed_at IS NULL`, [email])).rows[0];
    return row && memberOf(row);
  }

  async byId(db: SqlQueryable, id: string, options: { forUpdate?: boolean } = {}): Promise<MemberCredentials | undefined> {
    const row = (await db.query<MemberRow>(`${MEMBER_SELECT} WHERE m.id = $1 AND m.removed_at IS NULL${options.forUpdate ? ' FOR UPDATE OF m' : ''}`, [id])).rows[0];
    return row && memberOf(row);
  }

  async ofMerchant(merchantId: string): Promise<Member[]> {
    const { rows } = await this.client.query<MemberRow>(`${MEMBER_SELECT} WHERE m.merchant_id = $1 AND m.removed_at IS NULL ORDER BY m.created_at, m.id`, [merchantId]);
    return rows.map((row) => publicMember(memberOf(row)));
  }

  async owners(db: SqlQueryable, merchantId: string): Promise<number> {
    const { rows } = await db.query<{ n: string | number }>("SELECT count(*) AS n FROM dashboard_members WHERE merchant_id = $1 AND role = 'owner' AND removed_at IS NULL", [merchantId]);
    return Number(rows[0]?.n ?? 0);
  }

  /** Serialises the transactions that make a member of `email`, until the one holding it ends: an email is one live member's. */
  async lockEmail(db: SqlQueryable, email: string): Promise<void> {
    await db.query('SELECT pg_advisory_xact_lock(hashtext(lower($1)))', [email]);
  }

  async insert(db: SqlQueryable, member: { merchantId: string; email: string; role: MemberRole; passwordHash: string }, now: Date): Promise<string> {
    const id = newMemberId();
    await db.query('INSERT INTO dashboard_members (id, merchant_id, email, role, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)', [
      id,
      member.merchantId,
      member.email,
      member.role,
      member.passwordHash,
      now.toISOString(),
    ]);
    return id;
  }

  async setRole(db: SqlQueryable, id: string, role: MemberRole, now: Date): Promise<void> {
    await db.query('UPDATE dashboard_members SET role = $2, updated_at = $3 WHERE id = $1', [id, role, now.toISOString()]);
  }

  async remove(db: SqlQueryable, id: string, now: Date): Promise<void> {
    await db.query('UPDATE dashboard_members SET removed_at = $2, updated_at = $2 WHERE id = $1', [id, now.toISOString()]);
  }

  /**
   * Takes one attempt at a password or a code before it is checked, in one
   * statement, so that concurrent guesses cannot pass the limit: the `max`th
   * attempt without a completed sign-in locks the account until `lockedUntil`.
   * A locked account gives no attempt, but to a browser that completed a
   * sign-in before (`pastLock`). Resolves when the lock ends, if none was given.
   */
  async takeAttempt(id: string, attempt: { max: number; lockedUntil: Date; now: Date; pastLock: boolean }): Promise<Date | undefined> {
    const { rows } = await this.client.query<{ id: string }>(
      `UPDATE dashboard_members SET failed_sign_ins = failed_sign_ins + 1, locked_until = CASE WHEN failed_sign_ins + 1 >= $2 THEN $3::timestamptz ELSE locked_until END
        WHERE id = $1 AND ($5 OR locked_until IS NULL OR locked_until <= $4) RETURNING id`,
      [id, attempt.max, attempt.lockedUntil.toISOString(), attempt.now.toISOString(), attempt.pastLock],
    );
    if (rows.length === 1) return undefined;
    const lock = (await this.client.query<{ locked_until: Date | string | null }>('SELECT locked_until FROM dashboard_members WHERE id = $1', [id])).rows[0]?.locked_until;
    return lock ? toDate(lock) : attempt.now;
  }

  /** Gives back an attempt that succeeded: the password of a sign-in whose second factor is still to come. */
  async giveBackAttempt(id: string): Promise<void> {
    await this.client.query('UPDATE dashboard_members SET failed_sign_ins = GREATEST(failed_sign_ins - 1, 0) WHERE id = $1', [id]);
  }

  async clearFailures(id: string): Promise<void> {
    await this.client.query('UPDATE dashboard_members SET failed_sign_ins = 0, locked_until = NULL WHERE id = $1 AND (failed_sign_ins <> 0 OR locked_until IS NOT NULL)', [id]);
  }

  async setPendingTotp(id: string, sealed: string): Promise<void> {
    await this.client.query('UPDATE dashboard_members SET totp_pending_sealed = $2 WHERE id = $1', [id, sealed]);
  }

  /** The pending secret becomes the member's, with the step of the code that confirmed it. */
  async confirmTotp(id: string, sealed: string, step: number): Promise<boolean> {
    const { rows } = await this.client.query('UPDATE dashboard_members SET totp_secret_sealed = $2, totp_pending_sealed = NULL, totp_last_step = $3 WHERE id = $1 AND totp_pending_sealed = $2 RETURNING id', [id, sealed, step]);
    return rows.length === 1;
  }

  /** Records a code's step as used; false when another request used this step or a later one first. */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    const { rows } = await this.client.query('UPDATE dashboard_members SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id', [id, step]);
    return rows.length === 1;
  }

  async passkeysOf(memberId: string): Promise<StoredPasskey[]> {
    const { rows } = await this.client.query<{ id: string; member_id: string; public_key: string; counter: string | number; transports: string[] | string; name: string; created_at: Date | string; last_used_at: Date | string | null }>(
      'SELECT * FROM dashboard_passkeys WHERE member_id = $1 ORDER BY created_at',
      [memberId],
    );
    return rows.map((r) => ({
      id: r.id,
      memberId: r.member_id,
      publicKey: r.public_key,
      counter: Number(r.counter),
      transports: typeof r.transports === 'string' ? (JSON.parse(r.transports) as string[]) : r.transports,
      name: r.name,
      createdAt: toDate(r.created_at),
      lastUsedAt: r.last_used_at === null ? null : toDate(r.last_used_at),
    }));
  }

  /** Stores a new passkey; false when its credential id is already stored, whoever it is registered to. */
  async addPasskey(passkey: Omit<StoredPasskey, 'lastUsedAt'>): Promise<boolean> {
    const { rows } = await this.client.query('INSERT INTO dashboard_passkeys (id, member_id, public_key, counter, transports, name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING id', [
      passkey.id,
      passkey.memberId,
      passkey.publicKey,
      passkey.counter,
      JSON.stringify(passkey.transports),
      passkey.name,
      passkey.createdAt.toISOString(),
    ]);
    return rows.length === 1;
  }

  /** Moves the signature counter forward only: a counter that went back is a cloned authenticator, refused by the caller first. */
  async usePasskey(id: string, counter: number, now: Date): Promise<void> {
    await this.client.query('UPDATE dashboard_passkeys SET counter = GREATEST(counter, $2), last_used_at = $3 WHERE id = $1', [id, counter, now.toISOString()]);
  }

  async insertLink(db: SqlQueryable, token: string, link: Omit<Link, 'merchantName'>, now: Date): Promise<void> {
    await db.query('INSERT INTO dashboard_links (token_hash, kind, merchant_id, email, role, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
      tokenHash(token),
      link.kind,
      link.merchantId,
      link.email,
      link.role,
      link.createdBy,
      now.toISOString(),
      link.expiresAt.toISOString(),
    ]);
  }

  /** The link, when it is unused, unrevoked and unexpired at `now`; with `forUpdate`, locked until the transaction ends. */
  async usableLink(db: SqlQueryable, token: string, now: Date, options: { forUpdate?: boolean } = {}): Promise<Link | undefined> {
    const row = (
      await db.query<{ kind: Link['kind']; merchant_id: string; merchant_name: string; email: string; role: MemberRole; created_by: string; expires_at: Date | string }>(
        `SELECT l.*, x.name AS merchant_name FROM dashboard_links l JOIN merchants x ON x.merchant_id = l.merchant_id
          WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.revoked_at IS NULL AND l.expires_at > $2${options.forUpdate ? ' FOR UPDATE OF l' : ''}`,
        [tokenHash(token), now.toISOString()],
      )
    ).rows[0];
    return row && { kind: row.kind, merchantId: row.merchant_id, merchantName: row.merchant_name, email: row.email, role: row.role, createdBy: row.created_by, expiresAt: toDate(row.expires_at) };
  }

  async useLink(db: SqlQueryable, token: string, now: Date): Promise<void> {
    await db.query('UPDATE dashboard_links SET used_at = $2 WHERE token_hash = $1', [tokenHash(token), now.toISOString()]);
  }

  /** Invitations of the merchant still open at `now`. */
  async openInvitations(merchantId: string, now: Date): Promise<Array<{ email: string; role: MemberRole; expiresAt: Date }>> {
    const { rows } = await this.client.query<{ email: string; role: MemberRole; expires_at: Date | string }>(
      "SELECT email, role, expires_at FROM dashboard_links WHERE merchant_id = $1 AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at",
      [merchantId, now.toISOString()],
    );
    return rows.map((r) => ({ email: r.email, role: r.role, expiresAt: toDate(r.expires_at) }));
  }

  /** A new link for an email revokes the ones before it, so only the last one sent works. */
  async revokeLinksFor(db: SqlQueryable, merchantId: string, email: string, now: Date): Promise<void> {
    await db.query('UPDATE dashboard_links SET revoked_at = $3 WHERE merchant_id = $1 AND lower(email) = lower($2) AND used_at IS NULL AND revoked_at IS NULL', [merchantId, email, now.toISOString()]);
  }
}
