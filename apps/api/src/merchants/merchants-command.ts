import * as os from 'node:os';
import { parseArgs } from 'node:util';
import type { ServiceMode } from '../config/service-mode';
import { parseKeyring, SANDBOX_KEYRING } from '../config/keyring-config';
import { Keyring } from '../secrets/keyring';
import type { SqlClient } from '../db/sql-client';
import { MerchantAdmin, parseRolesOption, Refusal, type NewCredential } from './merchant-admin';
import { MerchantStore, type Actor } from './merchant-store';
import type { SetupLink } from './owner-setup-link';
import { importMerchantsFile } from './merchants-import';

/**
 * `node main.js merchants <command>` (`npm run merchants --`): the
 * operator's commands, run in the deployable itself against its database
 * (DATABASE_URL, or DATA_DIR while the service is stopped), as Mastodon's
 * tootctl and GitLab's rake tasks are. Each change is one transaction with
 * its audit line, in force on every instance within MERCHANTS_SYNC_MAX_LAG_MS.
 * A new secret is printed once, on stdout, and never logged.
 */

export const MERCHANTS_USAGE = `Usage: merchants <command> [--json] [--actor NAME] [--mode sandbox|production]

Commands:
  add --merchant-id M --tenant-id T --name N [--roles R1,R2] [--owner-email E]
                                Add a merchant with one new key; prints the key and its secret once.
                                Roles default to payouts:create, refunds:create, webhooks:manage, settlements:manage.
                                With --owner-email, also prints a one-time dashboard setup link for E, its owner
                                (setupUrl with --json; it expires after DASHBOARD_LINK_TTL_SECONDS, 3 days by default).
  setup-link --merchant-id M --email E
                                A new one-time setup link making E an owner of M, for a link that expired or was lost.
  list                          Merchants, their status, active keys and webhook endpoints.
  show --merchant-id M          A merchant, its keys (roles, status, created, expires, last used, secret fingerprint), endpoints and dashboard members; never a secret.
  roll-key --api-key K [--expires-in SECONDS] [--force-four-eyes-off]
                                A new key with exactly K's roles, printed once. K is refused after SECONDS (0: at once; at most 604800),
                                or stays until revoked when --expires-in is left out. rotate-key is the same command.
  revoke-key --api-key K        Refuse K at once, on every instance.
  suspend --merchant-id M [--reason TEXT]
                                Refuse every key of M and close its checkout; payouts and refunds in flight still settle.
  reinstate --merchant-id M     Undo suspend.
  set-unsettled-currencies --merchant-id M --currencies USD,GBP|none
                                Let M collect payins in currencies the platform does not settle (only NGN settles and pays out);
                                you settle that money with M by hand, outside the platform. none takes them all away.
  import FILE [--dry-run]       Import a merchants file (MERCHANTS_FILE's format), idempotently; reports what it adds or changes.
  audit [--merchant-id M] [--limit N]
                                Who changed what and when (the last N, default 100).
  rewrap                        Wrap every secret's data key with the first key of SECRETS_KEYRING (after adding a new first key).

The database is DATABASE_URL (migrated first on DATABASE_MIGRATION_URL when set), else DATA_DIR's embedded one (only while the service is stopped: it holds it).
Secrets are sealed with SECRETS_KEYRING (required in production). --mode defaults to PAYSIGN_MODE, else sandbox;
production mints pk_live_ keys and refuses what the service refuses. --actor defaults to the OS user.`;

/** What a run prints: lines for stdout (a new secret among them, once) or stderr, and the exit code. */
export interface CommandResult {
  code: number;
  out: string[];
}

/** How the command reaches its database; main.ts opens the configured one, a test its own. */
export type OpenDatabase = () => Promise<SqlClient>;

/** Runs one command; never throws for an operator's mistake, which is a message and exit code 2. */
export async function runMerchantsCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, openDatabase: OpenDatabase): Promise<CommandResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        mode: { type: 'string' },
        actor: { type: 'string' },
        json: { type: 'boolean' },
        'merchant-id': { type: 'string' },
        'tenant-id': { type: 'string' },
        'owner-email': { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        roles: { type: 'string' },
        'api-key': { type: 'string' },
        'expires-in': { type: 'string' },
        reason: { type: 'string' },
        limit: { type: 'string' },
        currencies: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'force-four-eyes-off': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return refuse(`${(error as Error).message}\n\n${MERCHANTS_USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals;
  if (values.help || command === undefined) return { code: values.help ? 0 : 2, out: [MERCHANTS_USAGE] };
  const mode = values.mode ?? env.PAYSIGN_MODE ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production') return refuse(`--mode must be sandbox or production, got "${mode}".`);
  const problems: string[] = [];
  if (mode === 'production' && !env.SECRETS_KEYRING) problems.push('SECRETS_KEYRING is required in production mode, as the service requires it');
  const keys = parseKeyring(env.SECRETS_KEYRING || SANDBOX_KEYRING, problems);
  if (problems.length > 0) return refuse(`Nothing was done:\n- ${problems.join('\n- ')}`);
  const actor: Actor = { actor: values.actor ?? `${safeUser()}@${os.hostname()}`, channel: 'command' };

  let client: SqlClient;
  try {
    client = await openDatabase();
  } catch (error) {
    return refuse(`Nothing was done: ${(error as Error).message}`);
  }
  try {
    const store = new MerchantStore(client, new Keyring(keys), mode);
    const result = await execute(command, operands, values, { store, mode, actor, links: MerchantAdmin.linkSettings(env) });
    return { code: 0, out: values.json ? [JSON.stringify(result.json)] : result.lines };
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.message);
    return refuse(`Nothing was done: ${(error as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

type Values = Partial<Record<'merchant-id' | 'tenant-id' | 'owner-email' | 'email' | 'name' | 'roles' | 'api-key' | 'expires-in' | 'reason' | 'limit' | 'currencies', string>> & { 'dry-run'?: boolean; 'force-four-eyes-off'?: boolean };

/** One command's outcome: one JSON object (--json), or lines for a person. */
interface Outcome {
  json: Record<string, unknown>;
  lines: string[];
}

async function execute(command: string, operands: string[], values: Values, { store, mode, actor, links }: { store: MerchantStore; mode: ServiceMode; actor: Actor; links: { origin: string; ttlSeconds: number } }): Promise<Outcome> {
  const admin = new MerchantAdmin(store, mode, actor);
  const need = (name: keyof Values & string): string => {
    const value = values[name as 'name'];
    if (typeof value !== 'string' || value === '') throw new Refusal(`${command} needs --${name}.`);
    return value;
  };
  switch (command) {
    case 'add': {
      const ownerEmail = values['owner-email'];
      const created = await admin.add({ merchantId: need('merchant-id'), tenantId: need('tenant-id'), name: need('name'), ...(values.roles ? { roles: parseRolesOption(values.roles) } : {}), ...(ownerEmail !== undefined ? { owner: { email: ownerEmail, ...links } } : {}) });
      const { owner, ...key } = created;
      return { json: { ...key, ...(owner ? { ownerEmail: owner.email, setupUrl: owner.setupUrl, setupUrlExpiresAt: owner.expiresAt } : {}) }, lines: [`Added merchant ${created.merchantId} (${created.tenantId}).`, ...shownOnce(created), ...(owner ? setupLinkLines(owner) : [])] };
    }
    case 'setup-link': {
      const link = await admin.setupLink(need('merchant-id'), { email: need('email'), ...links });
      return { json: { merchantId: values['merchant-id'], email: link.email, setupUrl: link.setupUrl, setupUrlExpiresAt: link.expiresAt }, lines: setupLinkLines(link) };
    }
    case 'list': {
      const merchants = await admin.list();
      return { json: { merchants }, lines: merchants.length ? merchants.map((m) => `${m.merchantId} (${m.tenantId}) ${m.name}: ${m.status}, ${m.activeKeys} active key(s), ${m.webhookEndpoints} webhook endpoint(s)`) : ['No merchants yet; add one with merchants add.'] };
    }
    case 'show': {
      const shown = await admin.show(need('merchant-id'));
      const keys = shown.keys as Array<Record<string, unknown>>;
      const endpoints = shown.webhookEndpoints as Array<Record<string, unknown>>;
      return {
        json: shown,
        lines: [
          `${String(shown.merchantId)} (${String(shown.tenantId)}) ${String(shown.name)}: ${String(shown.status)}`,
          ...keys.map((k) => `  key ${String(k.apiKey)} ${String(k.status)} (${(k.roles as string[]).join(', ')}) secret ${String(k.secretFingerprint)} created ${String(k.createdAt)}${k.expiresAt ? ` expires ${String(k.expiresAt)}` : ''} last used ${String(k.lastUsedAt ?? 'never')}`),
          ...endpoints.map((e) => `  webhook endpoint ${String(e.id)} ${String(e.status)} ${String(e.url)} (${(e.enabledEvents as string[]).join(', ')}) secrets ${(e.secretFingerprints as string[]).join(', ')}`),
          ...(shown.notifySecretFingerprints as string[]).map((f) => `  notifyUrl secret ${f}`),
          ...(shown.members as Array<{ email: string; role: string; totp: boolean; passkeys: number }>).map((m) => `  dashboard member ${m.email} ${m.role} (${[m.passkeys ? `${m.passkeys} passkey(s)` : '', m.totp ? 'TOTP' : ''].filter(Boolean).join(', ') || 'no factor yet'})`),
        ],
      };
    }
    case 'roll-key':
    case 'rotate-key': {
      const expiresIn = values['expires-in'];
      if (expiresIn !== undefined && !/^[0-9]+$/.test(expiresIn)) throw new Refusal('--expires-in must be a whole number of seconds, such as 3600.');
      const rolled = await admin.rollKey(need('api-key'), { ...(expiresIn !== undefined ? { expiresInSeconds: Number(expiresIn) } : {}), forceFourEyesOff: values['force-four-eyes-off'] === true });
      const old = values['api-key'] as string;
      const ending = rolled.oldKeyExpiresAt ? `${old} is refused from ${rolled.oldKeyExpiresAt}.` : `${old} stays active until you revoke it (merchants revoke-key --api-key ${old}).`;
      return {
        json: { merchantId: rolled.merchantId, tenantId: rolled.tenantId, apiKey: rolled.apiKey, secretKey: rolled.secretKey, roles: rolled.roles, rolledKey: old, rolledKeyExpiresAt: rolled.oldKeyExpiresAt, ...(rolled.warning ? { warning: rolled.warning } : {}) },
        lines: [`Added a key to ${rolled.merchantId} in place of ${old}, with its roles (${rolled.roles.join(', ')}). ${ending}`, ...shownOnce(rolled), ...(rolled.warning ? [`Warning: ${rolled.warning}`] : [])],
      };
    }
    case 'revoke-key': {
      const revoked = await admin.revokeKey(need('api-key'));
      return { json: { ...revoked, status: 'revoked' }, lines: [`Revoked ${revoked.apiKey} of ${revoked.merchantId}: refused by every instance within MERCHANTS_SYNC_MAX_LAG_MS.`] };
    }
    case 'suspend':
    case 'reinstate': {
      const changed = await admin.setStatus(need('merchant-id'), command === 'suspend' ? 'suspended' : 'active', values.reason);
      const said = command === 'suspend' ? 'suspended: its keys are refused and its checkout closed on every instance within MERCHANTS_SYNC_MAX_LAG_MS' : 'reinstated: its active keys work again';
      return { json: changed, lines: [`${changed.merchantId} ${said}.`] };
    }
    case 'set-unsettled-currencies': {
      const given = need('currencies');
      const currencies = given === 'none' ? [] : given.split(',').map((currency) => currency.trim());
      const set = await admin.setUnsettledCurrencies(need('merchant-id'), currencies);
      const said = currencies.length === 0 ? 'collects only currencies the platform settles' : `may collect ${currencies.join(', ')}, which the platform does not settle: you settle that money with it by hand`;
      return { json: set, lines: [`${set.merchantId} ${said}; in force on every instance within MERCHANTS_SYNC_MAX_LAG_MS.`] };
    }
    case 'import': {
      const [file] = operands;
      if (!file) throw new Refusal('import needs the file to import: merchants import FILE [--dry-run].');
      const report = await importMerchantsFile(store, file, { mode, actor, dryRun: values['dry-run'] === true, now: new Date() });
      const verb = report.dryRun ? 'would' : 'did';
      return {
        json: { ...report },
        lines: [`${report.dryRun ? 'Dry run: nothing was written. ' : ''}${file}: ${report.changes.length} change(s), ${report.unchanged} merchant(s) unchanged.`, ...report.changes.map((change) => `  ${verb}: ${change}`)],
      };
    }
    case 'audit': {
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new Refusal('--limit must be a whole number from 1 to 10000.');
      const records = await admin.audit({ ...(values['merchant-id'] ? { merchantId: values['merchant-id'] } : {}), limit });
      return { json: { records }, lines: records.map((r) => `${String(r.at)} ${String(r.actor)} (${String(r.channel)}) ${String(r.action)}${r.merchantId ? ` ${String(r.merchantId)}` : ''}${r.subject ? ` ${String(r.subject)}` : ''}`) };
    }
    case 'rewrap': {
      const done = await store.rewrap(actor);
      return { json: done, lines: [`Rewrapped ${done.rewrapped} secret(s) under key "${done.keyId}". Keys after it in SECRETS_KEYRING may now be removed.`] };
    }
    default:
      throw new Refusal(`Unknown command "${command}".\n\n${MERCHANTS_USAGE}`);
  }
}

function refuse(message: string): CommandResult {
  return { code: 2, out: [message] };
}

function shownOnce(credential: Pick<NewCredential, 'apiKey' | 'secretKey'>): string[] {
  return [`API key (X-API-KEY): ${credential.apiKey}`, 'Secret key, shown once; give it to the merchant over a secure channel:', credential.secretKey];
}

function setupLinkLines(link: SetupLink): string[] {
  return [`Dashboard setup link for ${link.email}, the owner: one use, until ${link.expiresAt}; send it to them over a secure channel:`, link.setupUrl];
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}
