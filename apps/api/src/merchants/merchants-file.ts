import { isWebhookSecret, WEBHOOK_SECRET_PREFIX, WEBHOOK_SECRET_RULE, HEADER_GRAMMAR } from '@paysign/signing';
import * as fs from 'node:fs';
import { SCHEMAS } from '@paysign/contracts';
import { settles } from '../money/settlement-currencies';
import { ConfigError, type ServiceMode } from '../config/app-config';
import { isGuessableSecret, MIN_SECRET_LENGTH, SECRET_STRENGTH_RULE } from '../config/secret-strength';
import { displayTextError } from '../http/display-text';
import { normaliseMerchantUrl } from '../http/merchant-url';
import { DEFAULT_FEES, parseFeeSchedule, type FeeSchedule } from '../money/fees';
import { NO_BRANDING, parseBranding, type Branding } from './branding';
import { OPT_IN_EVENTS, type MerchantEntry } from './merchant-registry';
import { DEFAULT_ROLES, NO_APPROVAL, parsePayoutApproval, parseRoles, type PayoutApprovalPolicy, type PayoutRole } from './payout-approval';

/*
 * The merchants file's format: what `merchants import` reads (and, until it
 * is gone, MERCHANTS_FILE at boot), and the rules every merchant is held to
 * in the database too, since a merchant loads only if it would pass them.
 */

/** Minimum secret length in sandbox mode, where the demo keys are public anyway. */
const MIN_SANDBOX_SECRET_LENGTH = 16;
/** API keys of the public sandbox; production refuses them. */
const SANDBOX_API_KEY_PREFIX = 'pk_sandbox_';
/** API keys the merchants tool mints outside production; production takes only live ones. */
const TEST_API_KEY_PREFIX = 'pk_test_';

const MERCHANT_FIELDS = ['merchantId', 'tenantId', 'name', 'credentials', 'webhookSecrets', 'webhookUrl', 'webhookOptInEvents', 'fees', 'payoutApproval', 'displayName', 'brandColor', 'logo', 'unsettledCurrencies'];
const CREDENTIAL_FIELDS = ['apiKey', 'secretKey', 'status', 'roles'];
const CREDENTIAL_STATUSES = ['active', 'revoked'];

export interface MerchantFileOptions {
  /** Production also refuses sandbox API keys, and short or guessable secrets. Default: sandbox. */
  mode?: ServiceMode;
  /**
   * Test keys production lets pass in this check: the merchants tool's,
   * for those a file already held, so that each rotation out of them can be
   * written while the others wait their turn. The service never sets it.
   */
  toleratedTestKeys?: ReadonlySet<string>;
}


/** MERCHANTS_FILE could not be read at all (permissions, missing), as opposed to read and refused. */
export class MerchantsFileUnreadable extends ConfigError {}

/** Reads and validates MERCHANTS_FILE; throws ConfigError naming every problem, MerchantsFileUnreadable when it cannot be read. */
export function readMerchantsFile(file: string, options: MerchantFileOptions = {}): MerchantEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const denied = (error as NodeJS.ErrnoException).code === 'EACCES';
    // The usual cause: the file was replaced by another user, and lost the group the service reads it through.
    const fix = denied ? `; give the service's user read access again, as when it was installed (for example chgrp 1000 ${file} && chmod 0640 ${file})` : '';
    throw new MerchantsFileUnreadable(`MERCHANTS_FILE ${file} cannot be read: ${(error as Error).message}${fix}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`MERCHANTS_FILE ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return validateMerchants(data, file, options);
}


/** The webhook secret of the sandbox merchants file: public, so production refuses it. */
export const SANDBOX_WEBHOOK_SECRET = 'whsec_c2FuZGJveC13ZWJob29rLXNlY3JldC1wdWJsaWM=';


/** Checks the file's shape; every problem names its entry and field. */
export function validateMerchants(data: unknown, file: string, options: MerchantFileOptions = {}): MerchantEntry[] {
  const production = options.mode === 'production';
  const minSecretLength = production ? MIN_SECRET_LENGTH : MIN_SANDBOX_SECRET_LENGTH;
  const problems: string[] = [];
  if (!Array.isArray(data)) throw new ConfigError(`MERCHANTS_FILE ${file} must hold a JSON array of merchants`);
  if (data.length === 0) problems.push('the array is empty: no request could ever be admitted');
  const seenMerchants = new Set<string>();
  const seenKeys = new Set<string>();
  const fees: FeeSchedule[] = [];
  const approvals: PayoutApprovalPolicy[] = [];
  const brandings: Branding[] = [];
  const roles = new Map<string, readonly PayoutRole[]>();
  const webhookUrls: Array<string | undefined> = [];
  data.forEach((entry: unknown, i) => {
    const at = `merchants[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !MERCHANT_FIELDS.includes(k));
    if (unknown.length) problems.push(`${at} has unknown field(s) ${unknown.join(', ')}`);
    for (const field of ['merchantId', 'tenantId'] as const) {
      if (typeof e[field] !== 'string' || !HEADER_GRAMMAR[field].pattern.test(e[field] as string)) problems.push(`${at}.${field} must be ${HEADER_GRAMMAR[field].rule}`);
    }
    if (typeof e.name !== 'string' || e.name.trim() === '') problems.push(`${at}.name must be a non-empty string`);
    else {
      // The checkout page shows the name to customers: it must display as it reads, like any text a merchant sends.
      const nameError = displayTextError(`${at}.name`, e.name);
      if (nameError) problems.push(nameError.message.replace(/\.$/, ''));
    }
    if (typeof e.merchantId === 'string') {
      if (seenMerchants.has(e.merchantId)) problems.push(`${at}.merchantId ${e.merchantId} appears twice`);
      seenMerchants.add(e.merchantId);
    }
    fees[i] = parseFeeSchedule(e.fees, `${at}.fees`, problems);
    approvals[i] = parsePayoutApproval(e.payoutApproval, `${at}.payoutApproval`, problems);
    brandings[i] = parseBranding(e, at, problems);
    if (e.webhookUrl !== undefined) {
      const url = typeof e.webhookUrl === 'string' ? normaliseMerchantUrl('webhookUrl', e.webhookUrl) : undefined;
      if (!url || 'error' in url) problems.push(`${at}.webhookUrl ${url && 'error' in url ? url.error.message.replace(/^webhookUrl /, '').replace(/\.$/, '') : 'must be a string'}`);
      else if (production && !url.url.startsWith('https:')) problems.push(`${at}.webhookUrl must be an https URL in production mode`);
      else if (!Array.isArray(e.webhookSecrets) || e.webhookSecrets.length === 0) problems.push(`${at}.webhookUrl needs webhookSecrets to sign the events sent to it`);
      else webhookUrls[i] = url.url;
    }
    if (e.unsettledCurrencies !== undefined) {
      const problem = unsettledCurrenciesProblem(e.unsettledCurrencies);
      if (problem) problems.push(`${at}.unsettledCurrencies ${problem}`);
    }
    if (e.webhookOptInEvents !== undefined) {
      const events = e.webhookOptInEvents;
      if (!Array.isArray(events) || events.some((event) => !(OPT_IN_EVENTS as readonly unknown[]).includes(event))) {
        problems.push(`${at}.webhookOptInEvents must be an array of the opt-in events: ${OPT_IN_EVENTS.join(', ')}`);
      } else if (new Set(events).size !== events.length) problems.push(`${at}.webhookOptInEvents names an event twice`);
    }
    if (e.webhookSecrets !== undefined) {
      if (!Array.isArray(e.webhookSecrets)) problems.push(`${at}.webhookSecrets must be an array of whsec_ secrets`);
      else
        e.webhookSecrets.forEach((secret: unknown, j) => {
          if (!isWebhookSecret(secret)) problems.push(`${at}.webhookSecrets[${j}] must be ${WEBHOOK_SECRET_RULE}`);
          else if (production && secret === SANDBOX_WEBHOOK_SECRET) problems.push(`${at}.webhookSecrets[${j}] is the public sandbox webhook secret, refused in production mode`);
          // Judged on the key's base64, without the fixed prefix every secret shares.
          else if (production && isGuessableSecret((secret as string).slice(WEBHOOK_SECRET_PREFIX.length))) {
            problems.push(`${at}.webhookSecrets[${j}] is too predictable for production mode (repeated, or too few different characters); use whsec_ and the base64 of random bytes, such as the output of openssl rand -base64 32`);
          }
        });
    }
    if (!Array.isArray(e.credentials) || e.credentials.length === 0) {
      problems.push(`${at}.credentials must be a non-empty array of {apiKey, secretKey, status?, roles?}`);
      return;
    }
    e.credentials.forEach((credential: unknown, j) => {
      const cat = `${at}.credentials[${j}]`;
      if (typeof credential !== 'object' || credential === null || Array.isArray(credential)) {
        problems.push(`${cat} must be an object {apiKey, secretKey, status?, roles?}`);
        return;
      }
      const c = credential as Record<string, unknown>;
      const unknownFields = Object.keys(c).filter((k) => !CREDENTIAL_FIELDS.includes(k));
      if (unknownFields.length) problems.push(`${cat} has unknown field(s) ${unknownFields.join(', ')}; a credential has ${CREDENTIAL_FIELDS.join(', ')}`);
      if (typeof c.apiKey !== 'string' || !HEADER_GRAMMAR.apiKey.pattern.test(c.apiKey)) {
        problems.push(`${cat}.apiKey must be ${HEADER_GRAMMAR.apiKey.rule}`);
      } else {
        if (seenKeys.has(c.apiKey)) problems.push(`${cat}.apiKey is used by another credential`);
        seenKeys.add(c.apiKey);
        if (production && c.apiKey.startsWith(SANDBOX_API_KEY_PREFIX)) problems.push(`${cat}.apiKey ${c.apiKey} is a public sandbox key, refused in production mode`);
        else if (production && c.apiKey.startsWith(TEST_API_KEY_PREFIX) && c.status !== 'revoked' && !options.toleratedTestKeys?.has(c.apiKey)) {
          problems.push(`${cat}.apiKey ${c.apiKey} of merchant ${String(e.merchantId)} is a test key, refused in production mode; roll it to a live key with \`merchants rotate-key --api-key ${c.apiKey} --mode production\`, which revokes it`);
        }
      }
      if (typeof c.secretKey !== 'string' || c.secretKey.length < minSecretLength) {
        problems.push(`${cat}.secretKey must be a string of at least ${minSecretLength} characters${production ? ' in production mode' : ''}`);
      } else if (production && isGuessableSecret(c.secretKey)) {
        problems.push(`${cat}.secretKey is too predictable for production mode (repeated, or too few different characters); use ${SECRET_STRENGTH_RULE}`);
      }
      if (c.status !== undefined && !CREDENTIAL_STATUSES.includes(c.status as string)) problems.push(`${cat}.status must be "active" or "revoked"`);
      if (typeof c.apiKey === 'string') roles.set(c.apiKey, parseRoles(c.roles, `${cat}.roles`, problems));
    });
  });
  if (problems.length) throw new ConfigError(`MERCHANTS_FILE ${file} is invalid:\n- ${problems.join('\n- ')}`);
  return (data as Array<MerchantEntry & Record<string, unknown>>).map(({ displayName: _displayName, brandColor: _brandColor, logo: _logo, ...entry }, i) => ({
    ...entry,
    branding: brandings[i] ?? NO_BRANDING,
    credentials: entry.credentials.map((credential) => ({ ...credential, roles: roles.get(credential.apiKey) ?? DEFAULT_ROLES })),
    fees: fees[i] ?? DEFAULT_FEES,
    payoutApproval: approvals[i] ?? NO_APPROVAL,
    ...(webhookUrls[i] ? { webhookUrl: webhookUrls[i] } : {}),
  }));
}

/**
 * Why a merchant's `unsettledCurrencies` cannot be taken, or undefined: it
 * lists currencies of the contract the platform does not settle, each once.
 * NGN, which settles, is refused: listing it would say nothing.
 */
export function unsettledCurrenciesProblem(value: unknown): string | undefined {
  const unsettled = SCHEMAS.Currency.enum.filter((currency) => !settles(currency));
  if (!Array.isArray(value) || value.some((currency) => !(unsettled as readonly unknown[]).includes(currency))) return `must be an array of currencies the platform does not settle: ${unsettled.join(', ')}`;
  if (new Set(value).size !== value.length) return 'names a currency twice';
  return undefined;
}
