import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { ServiceMode } from '../config/app-config';
import { validateMerchants } from './merchant-registry';
import { withMerchantsFileLock, type MerchantsFileLockOptions } from './merchants-file-lock';
import { replaceFileAtomically } from './merchants-file-write';
import { DEFAULT_ROLES } from './payout-approval';

/**
 * `node main.js merchants <command>` (`npm run merchants --`): the operator's
 * tool for MERCHANTS_FILE. Keys and secrets come from crypto.randomBytes in
 * fixed formats; every edit is checked with the service's own validator and
 * written atomically (a temporary file, fsync, rename) keeping the file's
 * owner, group and permissions, so the running service's watcher sees the
 * old file or the new one, never half of one. Edits take the file's lock
 * (merchants-file-lock.ts), so that two at once never lose one another.
 * A new secret is printed once, on stdout, and never logged.
 */

export const MERCHANTS_USAGE = `Usage: merchants <command> [--file F] [--mode sandbox|production]

Commands:
  list                                   Merchants, their key IDs and status, and webhook secret fingerprints; never a secret.
  add --merchant-id M --tenant-id T --name N
                                         Add a merchant with one new key; prints the key and its secret once.
  rotate-key --api-key K [--force-four-eyes-off]
                                         Add a new key beside K, with exactly K's roles; prints it once. Revoke K once clients use the new one.
                                         --merchant-id M instead of --api-key when M has a single active key.
                                         A key holding both payouts:create and payouts:approve is rotated only with --force-four-eyes-off.
  revoke-key --api-key K                 Revoke a key: refused at once by every instance (MERCHANTS_WATCH_INTERVAL_MS, or SIGHUP).
  add-webhook-secret --merchant-id M     Add a webhook signing secret; prints it once. Events are signed with every secret until the old one is removed.
  remove-webhook-secret --merchant-id M --fingerprint F
                                         Remove the webhook secret whose fingerprint (from list) is F.

--file defaults to MERCHANTS_FILE; --mode to PAYSIGN_MODE, else to what the file's keys say (pk_live_: production); production refuses what the service refuses in production. add and rotate-key refuse to guess when neither says.
Edits wait for one another (the lock file MERCHANTS_FILE.lock), and keep the file's owner, group and permissions.`;

/** The two roles four eyes keeps on separate keys. */
const FOUR_EYES_ROLES = ['payouts:create', 'payouts:approve'] as const;

/** What a test may set about a run; the operator's command uses the defaults. */
export interface MerchantsCommandOptions {
  /** How the file's lock is waited for. Default: LOCK_WAIT_MS, on the real clock. */
  lock?: MerchantsFileLockOptions;
}

type Entry = Record<string, unknown> & { merchantId: string; credentials: Array<Record<string, unknown>>; webhookSecrets?: string[]; webhookOptInEvents?: string[] };

/** What a run prints: lines for stdout (the new secret among them, once), and the exit code. */
export interface CommandResult {
  code: number;
  out: string[];
}

/** Runs one command against the file; never throws for an operator's mistake, which is a message and exit code 2. */
export function runMerchantsCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, options: MerchantsCommandOptions = {}): CommandResult {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        file: { type: 'string' },
        mode: { type: 'string' },
        'merchant-id': { type: 'string' },
        'tenant-id': { type: 'string' },
        name: { type: 'string' },
        'api-key': { type: 'string' },
        fingerprint: { type: 'string' },
        'force-four-eyes-off': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    return refuse(`${(error as Error).message}\n\n${MERCHANTS_USAGE}`);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help || command === undefined) return { code: command === undefined && !values.help ? 2 : 0, out: [MERCHANTS_USAGE] };
  const file = values.file ?? env.MERCHANTS_FILE;
  if (!file) return refuse('Name the merchants file with --file, or set MERCHANTS_FILE.');
  const named = values.mode ?? env.PAYSIGN_MODE;
  if (named !== undefined && named !== 'sandbox' && named !== 'production') return refuse(`--mode must be sandbox or production, got "${named}".`);
  if (command === 'list') return execute(command, values, file, named ?? 'sandbox');
  try {
    return withMerchantsFileLock(
      file,
      () => {
        const mode = modeFor(command, file, named);
        return 'refused' in mode ? refuse(mode.refused) : execute(command, values, file, mode.mode);
      },
      options.lock,
    );
  } catch (error) {
    // The lock was not taken (MerchantsFileLockBusy, whose message names its holder), or could not be made.
    return refuse(`Nothing was written: ${(error as Error).message}`);
  }
}

type Values = Partial<Record<'merchant-id' | 'tenant-id' | 'name' | 'api-key' | 'fingerprint', string>> & { 'force-four-eyes-off'?: boolean };

/** One command, from reading the file to writing it; an edit runs holding the file's lock. */
function execute(command: string, values: Values, file: string, mode: ServiceMode): CommandResult {
  const exists = fs.existsSync(file);
  if (!exists && command !== 'add') return refuse(`${file} does not exist; create it with the add command.`);
  let entries: Entry[];
  try {
    entries = exists ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Entry[]) : [];
    if (!Array.isArray(entries)) return refuse(`${file} must hold a JSON array of merchants.`);
  } catch (error) {
    return refuse(`${file} is not JSON: ${(error as Error).message}`);
  }

  const need = (name: 'merchant-id' | 'tenant-id' | 'name' | 'api-key' | 'fingerprint'): string => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new Refusal(`${command} needs --${name}.`);
    return value;
  };
  const merchantOf = (merchantId: string): Entry => {
    const entry = entries.find((e) => e.merchantId === merchantId);
    if (!entry) throw new Refusal(`No merchant ${merchantId} in ${file}.`);
    return entry;
  };

  try {
    switch (command) {
      case 'list':
        return { code: 0, out: entries.flatMap(describe) };
      case 'add': {
        const merchantId = need('merchant-id');
        if (entries.some((e) => e.merchantId === merchantId)) throw new Refusal(`Merchant ${merchantId} is already in ${file}; use rotate-key to give it another key.`);
        const credential = newCredential(mode);
        entries.push({ merchantId, tenantId: need('tenant-id'), name: need('name'), credentials: [credential] });
        write(file, entries, mode);
        return { code: 0, out: [`Added merchant ${merchantId}.`, ...shownOnce(credential)] };
      }
      case 'rotate-key': {
        const { entry, rolled } = keyToRoll(entries, values, file);
        const roles = Array.isArray(rolled.roles) ? (rolled.roles as string[]) : undefined;
        const combined = FOUR_EYES_ROLES.every((role) => (roles ?? DEFAULT_ROLES).includes(role));
        if (combined && !values['force-four-eyes-off']) {
          throw new Refusal(
            `${String(rolled.apiKey)} holds both payouts:create and payouts:approve: whoever holds it and a new key with its roles could create a payout with one and approve it with the other, four eyes in name only. Give the two roles to separate keys in ${file} and rotate each, or rotate it anyway with --force-four-eyes-off.`,
          );
        }
        // Exactly the rolled key's roles: none written when it has none, which are the defaults.
        const credential = { ...newCredential(mode), ...(roles ? { roles: [...roles] } : {}) };
        entry.credentials.push(credential);
        // A test key works nowhere in production: rolled there, it is revoked in the same write rather than kept for an overlap.
        const retired = mode === 'production' && String(rolled.apiKey).startsWith('pk_test_');
        if (retired) rolled.status = 'revoked';
        write(file, entries, mode);
        const warning = combined ? [`Warning: four eyes is off: ${credential.apiKey} holds payouts:create and payouts:approve, as ${String(rolled.apiKey)} does, so whoever holds both keys can create a payout with one and approve it with the other. Revoke ${String(rolled.apiKey)} as soon as clients use the new key.`] : [];
        const done = retired
          ? `Added a live key to ${entry.merchantId} in place of the test key ${String(rolled.apiKey)}, with its roles (${(roles ?? DEFAULT_ROLES).join(', ')}), and revoked the test key, which production refuses.`
          : `Added a key to ${entry.merchantId} in place of ${String(rolled.apiKey)}, with its roles (${(roles ?? DEFAULT_ROLES).join(', ')}); its other keys stay active until you revoke them.`;
        return { code: 0, out: [done, ...shownOnce(credential), ...warning] };
      }
      case 'revoke-key': {
        const apiKey = need('api-key');
        const credential = entries.flatMap((e) => e.credentials).find((c) => c.apiKey === apiKey);
        if (!credential) throw new Refusal(`No key ${apiKey} in ${file}.`);
        credential.status = 'revoked';
        write(file, entries, mode);
        return { code: 0, out: [`Revoked ${apiKey}. Every instance refuses it once it has read the file (within MERCHANTS_WATCH_INTERVAL_MS, or at once on SIGHUP).`] };
      }
      case 'add-webhook-secret': {
        const entry = merchantOf(need('merchant-id'));
        const secret = `whsec_${randomBytes(32).toString('base64')}`;
        entry.webhookSecrets = [...(entry.webhookSecrets ?? []), secret];
        write(file, entries, mode);
        return { code: 0, out: [`Added a webhook secret to ${entry.merchantId} (fingerprint ${fingerprintOf(secret)}). It is shown once:`, secret] };
      }
      case 'remove-webhook-secret': {
        const entry = merchantOf(need('merchant-id'));
        const fingerprint = need('fingerprint');
        const kept = (entry.webhookSecrets ?? []).filter((secret) => fingerprintOf(secret) !== fingerprint);
        if (kept.length === (entry.webhookSecrets ?? []).length) throw new Refusal(`${entry.merchantId} has no webhook secret of fingerprint ${fingerprint}; list shows them.`);
        entry.webhookSecrets = kept;
        if (kept.length === 0) delete entry.webhookSecrets;
        write(file, entries, mode);
        return { code: 0, out: [`Removed the webhook secret ${fingerprint} of ${entry.merchantId}.`] };
      }
      default:
        return refuse(`Unknown command "${command}".\n\n${MERCHANTS_USAGE}`);
    }
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.message);
    // The service's validator: the file the edit would make is refused whole, and the file on disk is unchanged.
    return refuse(`Nothing was written: ${(error as Error).message}`);
  }
}

class Refusal extends Error {}

/** The key a rotation rolls: the one --api-key names, or a merchant's single active key. */
function keyToRoll(entries: Entry[], values: Values, file: string): { entry: Entry; rolled: Record<string, unknown> } {
  const apiKey = values['api-key'];
  const merchantId = values['merchant-id'];
  if (apiKey) {
    const entry = entries.find((e) => e.credentials.some((c) => c.apiKey === apiKey));
    const rolled = entry?.credentials.find((c) => c.apiKey === apiKey);
    if (!entry || !rolled) throw new Refusal(`No key ${apiKey} in ${file}; list shows the keys.`);
    if (merchantId && merchantId !== entry.merchantId) throw new Refusal(`${apiKey} is a key of ${entry.merchantId}, not of ${merchantId}.`);
    if (rolled.status === 'revoked') throw new Refusal(`${apiKey} is revoked; rotate one of the active keys of ${entry.merchantId} (list shows them).`);
    return { entry, rolled };
  }
  if (!merchantId) throw new Refusal('rotate-key needs --api-key, the key to roll (or --merchant-id, for a merchant with a single active key).');
  const entry = entries.find((e) => e.merchantId === merchantId);
  if (!entry) throw new Refusal(`No merchant ${merchantId} in ${file}.`);
  const active = entry.credentials.filter((c) => c.status !== 'revoked');
  const [only] = active;
  if (active.length === 1 && only) return { entry, rolled: only };
  if (active.length === 0) throw new Refusal(`${merchantId} has no active key to roll: each of its keys is revoked. A new key for it is added to ${file} by hand (docs/operations.md, Merchants and key rotation).`);
  throw new Refusal(`${merchantId} has ${active.length} active keys; name the one to roll with --api-key:\n${active.map((c) => `  ${String(c.apiKey)} (${(Array.isArray(c.roles) ? (c.roles as string[]) : DEFAULT_ROLES).join(', ')})`).join('\n')}`);
}

function refuse(message: string): CommandResult {
  return { code: 2, out: [message] };
}

/** A key ID and its secret: `pk_<mode>_` and 24 hex digits; `sk_<mode>_` and 43 characters of base64url (256 bits). */
function newCredential(mode: ServiceMode): { apiKey: string; secretKey: string } {
  const tag = mode === 'production' ? 'live' : 'test';
  return { apiKey: `pk_${tag}_${randomBytes(12).toString('hex')}`, secretKey: `sk_${tag}_${randomBytes(32).toString('base64url')}` };
}

function shownOnce(credential: { apiKey: string; secretKey: string }): string[] {
  return [`API key (X-API-KEY): ${credential.apiKey}`, 'Secret key, shown once; give it to the merchant over a secure channel:', credential.secretKey];
}

/** The first 12 hex digits of a secret's SHA-256: enough to tell secrets apart, nothing to sign with. */
export function fingerprintOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

function describe(entry: Entry): string[] {
  const keys = entry.credentials.map((c) => `  key ${String(c.apiKey)} ${c.status === 'revoked' ? 'revoked' : 'active'}${Array.isArray(c.roles) ? ` (${c.roles.join(', ')})` : ''}`);
  const secrets = (entry.webhookSecrets ?? []).map((secret) => `  webhook secret ${fingerprintOf(secret)}`);
  const optIns = (entry.webhookOptInEvents ?? []).map((event) => `  opted in to ${String(event)}`);
  return [`${entry.merchantId} (${String(entry.tenantId)}) ${String(entry.name)}`, ...keys, ...secrets, ...optIns];
}

/** Validates the whole file as the service would, then replaces it atomically, keeping its owner, group and permissions (0600 for a new one). */
function write(file: string, entries: Entry[], mode: ServiceMode): void {
  // Test keys the file held before this edit pass here: rolling a production file out of them takes one write per key, each refused otherwise while the others remain.
  const toleratedTestKeys = new Set(keysHeld(file).filter((key) => key.startsWith('pk_test_')));
  validateMerchants(JSON.parse(JSON.stringify(entries)), file, { mode, toleratedTestKeys });
  replaceFileAtomically(file, `${JSON.stringify(entries, null, 2)}\n`);
}

/** API keys of a production deployment, and of the others: what a file's keys say of where it is deployed. */
const LIVE_KEY = /^pk_live_/;
const TEST_KEY = /^pk_(test|sandbox)_/;

/**
 * The mode an edit of `file` runs in: the one named (--mode, or
 * PAYSIGN_MODE), unless the file's keys say otherwise; else the one its
 * keys say. A command that mints a key refuses to guess when neither says,
 * since a test key in a production file is a key production refuses.
 */
function modeFor(command: string, file: string, named: ServiceMode | undefined): { mode: ServiceMode } | { refused: string } {
  const keys = keysHeld(file);
  const live = keys.some((key) => LIVE_KEY.test(key));
  const test = keys.some((key) => TEST_KEY.test(key));
  const said: ServiceMode | undefined = live && !test ? 'production' : test && !live ? 'sandbox' : undefined;
  if (named === 'sandbox' && live) return { refused: `${file} holds live keys (pk_live_): it is a production deployment's file, and a sandbox key would be refused there. Run with --mode production, or leave --mode and PAYSIGN_MODE unset.` };
  if (named !== undefined) return { mode: named };
  if (said !== undefined) return { mode: said };
  if (command === 'add' || command === 'rotate-key') {
    return { refused: `Say --mode sandbox or --mode production (or set PAYSIGN_MODE): ${file} holds no key that says which deployment it is for, and ${command} mints a key of that mode (pk_test_ or pk_live_).` };
  }
  return { mode: 'sandbox' };
}

/** The API keys `file` holds now, revoked ones included; none when it is missing or unreadable (the command itself says so). */
function keysHeld(file: string): string[] {
  try {
    const entries = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown) : [];
    if (!Array.isArray(entries)) return [];
    return entries.flatMap((entry: { credentials?: unknown }) => (Array.isArray(entry?.credentials) ? entry.credentials : [])).map((c: { apiKey?: unknown }) => String(c?.apiKey ?? ''));
  } catch {
    return [];
  }
}
