import type { Migration } from '../db/migrations';

export const MERCHANTS: Migration = {
  id: 22,
  name: 'merchants in the database',
  // Merchants, their keys and webhook endpoints, with every secret sealed
  // (secrets/keyring.ts), the operators' audit trail, and one version that
  // every change bumps, which each instance watches. New tables and a
  // nullable column: the release before ignores them, and keeps reading
  // MERCHANTS_FILE, which it shares with this one until it is gone.
  statements: [
    `CREATE TABLE merchants (
       merchant_id text PRIMARY KEY,
       tenant_id text NOT NULL,
       name text NOT NULL,
       status text NOT NULL CHECK (status IN ('active', 'suspended')),
       settings jsonb NOT NULL DEFAULT '{}',
       notify_secrets jsonb NOT NULL DEFAULT '[]',
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    `CREATE TABLE merchant_credentials (
       api_key text PRIMARY KEY,
       merchant_id text NOT NULL REFERENCES merchants (merchant_id),
       secret_sealed text NOT NULL,
       roles jsonb NOT NULL,
       status text NOT NULL CHECK (status IN ('active', 'revoked')),
       created_at timestamptz NOT NULL,
       expires_at timestamptz,
       revoked_at timestamptz,
       last_used_at timestamptz
     )`,
    'CREATE INDEX merchant_credentials_of_merchant ON merchant_credentials (merchant_id, created_at)',
    `CREATE TABLE webhook_endpoints (
       id text PRIMARY KEY,
       merchant_id text NOT NULL REFERENCES merchants (merchant_id),
       url text NOT NULL,
       enabled_events jsonb NOT NULL,
       description text,
       status text NOT NULL CHECK (status IN ('enabled', 'disabled', 'deleted')),
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
    'CREATE INDEX webhook_endpoints_of_merchant ON webhook_endpoints (merchant_id, created_at)',
    `CREATE TABLE webhook_endpoint_secrets (
       endpoint_id text NOT NULL REFERENCES webhook_endpoints (id),
       secret_id text NOT NULL,
       secret_sealed text NOT NULL,
       fingerprint text NOT NULL,
       created_at timestamptz NOT NULL,
       expires_at timestamptz,
       PRIMARY KEY (endpoint_id, secret_id)
     )`,
    `CREATE TABLE merchant_audit (
       id bigserial PRIMARY KEY,
       at timestamptz NOT NULL,
       actor text NOT NULL,
       channel text NOT NULL,
       action text NOT NULL,
       merchant_id text,
       subject text,
       detail jsonb NOT NULL DEFAULT '{}'
     )`,
    'CREATE INDEX merchant_audit_of_merchant ON merchant_audit (merchant_id, id)',
    `CREATE TABLE merchants_file_imports (
       digest text PRIMARY KEY,
       file text NOT NULL,
       imported_at timestamptz NOT NULL
     )`,
    `CREATE TABLE merchants_version (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       version bigint NOT NULL
     )`,
    'INSERT INTO merchants_version (singleton, version) VALUES (true, 0)',
    // An event of a merchant's endpoint, signed with that endpoint's secrets; null: the object's notifyUrl.
    'ALTER TABLE outbox_events ADD COLUMN endpoint_id text',
  ],
};
