import type { Migration } from '../db/migrations';

export const DASHBOARD: Migration = {
  id: 27,
  name: 'the merchant dashboard: members, passkeys, sessions, links',
  // New tables, and a nullable column on the audit trail: the release before
  // ignores them. A member belongs to one merchant, and an email to one live
  // member, so that signing in needs no choice of merchant. Session and link
  // tokens are stored as their SHA-256 only: a copy of the database opens no
  // session. The audit trail becomes append-only here.
  statements: [
    `CREATE TABLE dashboard_members (
       id text PRIMARY KEY,
       merchant_id text NOT NULL REFERENCES merchants (merchant_id),
       email text NOT NULL,
       role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'operations', 'approver', 'viewer')),
       password_hash text NOT NULL,
       totp_secret_sealed text,
       totp_pending_sealed text,
       totp_last_step bigint,
       failed_sign_ins integer NOT NULL DEFAULT 0,
       locked_until timestamptz,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       removed_at timestamptz
     )`,
    'CREATE UNIQUE INDEX dashboard_members_email ON dashboard_members (lower(email)) WHERE removed_at IS NULL',
    'CREATE INDEX dashboard_members_of_merchant ON dashboard_members (merchant_id, created_at)',
    `CREATE TABLE dashboard_passkeys (
       id text PRIMARY KEY,
       member_id text NOT NULL REFERENCES dashboard_members (id),
       public_key text NOT NULL,
       counter bigint NOT NULL,
       transports jsonb NOT NULL DEFAULT '[]',
       name text NOT NULL,
       created_at timestamptz NOT NULL,
       last_used_at timestamptz
     )`,
    'CREATE INDEX dashboard_passkeys_of_member ON dashboard_passkeys (member_id)',
    `CREATE TABLE dashboard_sessions (
       token_hash text PRIMARY KEY,
       member_id text NOT NULL REFERENCES dashboard_members (id),
       stage text NOT NULL CHECK (stage IN ('second_factor', 'enrol', 'active')),
       csrf_token text NOT NULL,
       address text,
       created_at timestamptz NOT NULL,
       last_seen_at timestamptz NOT NULL,
       absolute_expires_at timestamptz NOT NULL,
       fresh_until timestamptz,
       ended_at timestamptz,
       challenge text,
       challenge_purpose text,
       challenge_expires_at timestamptz
     )`,
    'CREATE INDEX dashboard_sessions_of_member ON dashboard_sessions (member_id) WHERE ended_at IS NULL',
    `CREATE TABLE dashboard_links (
       token_hash text PRIMARY KEY,
       kind text NOT NULL CHECK (kind IN ('setup', 'invitation')),
       merchant_id text NOT NULL REFERENCES merchants (merchant_id),
       email text NOT NULL,
       role text NOT NULL,
       created_by text NOT NULL,
       created_at timestamptz NOT NULL,
       expires_at timestamptz NOT NULL,
       used_at timestamptz,
       revoked_at timestamptz
     )`,
    'CREATE INDEX dashboard_links_of_merchant ON dashboard_links (merchant_id, created_at)',
    // A browser that completed a sign-in to a member: the account's lockout does not hold it.
    `CREATE TABLE dashboard_devices (
       token_hash text PRIMARY KEY,
       member_id text NOT NULL REFERENCES dashboard_members (id),
       created_at timestamptz NOT NULL,
       last_seen_at timestamptz NOT NULL
     )`,
    `CREATE TABLE dashboard_address_failures (
       address text NOT NULL,
       hour timestamptz NOT NULL,
       failures integer NOT NULL,
       PRIMARY KEY (address, hour)
     )`,
    // The home page's totals of today and the week, read per merchant by when the money moved.
    "CREATE INDEX payins_paid_of_merchant ON payins (merchant_id, paid_at) WHERE status = 'SUCCESSFUL'",
    "CREATE INDEX payouts_completed_of_merchant ON payouts (merchant_id, completed_at) WHERE status = 'SUCCESSFUL'",
    // Who created a key from the dashboard: that member may not approve what the key creates.
    'ALTER TABLE merchant_credentials ADD COLUMN created_by_member text',
    'ALTER TABLE merchant_audit ADD COLUMN address text',
    `CREATE FUNCTION merchant_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       RAISE EXCEPTION 'merchant_audit is append-only: % refused', TG_OP;
     END $$`,
    'CREATE TRIGGER merchant_audit_append_only BEFORE UPDATE OR DELETE ON merchant_audit FOR EACH ROW EXECUTE FUNCTION merchant_audit_append_only()',
  ],
};
