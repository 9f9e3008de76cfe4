import * as fs from 'node:fs';
import { HEADER_GRAMMAR } from '@paysign/signing';
import { ConfigError } from '../config/app-config';
import type { Credential, Merchant } from './merchant';

/** Minimum secret length. 16 random base64 characters carry 96 bits; production secrets should be longer. */
const MIN_SECRET_LENGTH = 16;

/** Resolves API keys to their merchant and secret. Loaded once at boot. */
export class MerchantRegistry {
  private readonly byApiKey = new Map<string, { merchant: Merchant; secretKey: string }>();

  constructor(entries: ReadonlyArray<Merchant & { credentials: readonly Credential[] }>) {
    for (const { credentials, ...merchant } of entries) {
      for (const { apiKey, secretKey } of credentials) this.byApiKey.set(apiKey, { merchant, secretKey });
    }
  }

  static fromFile(file: string): MerchantRegistry {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`MERCHANTS_FILE ${file} cannot be read: ${(error as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`MERCHANTS_FILE ${file} is not valid JSON: ${(error as Error).message}`);
    }
    return new MerchantRegistry(validateMerchants(data, file));
  }

  secretFor(apiKey: string): string | undefined {
    return this.byApiKey.get(apiKey)?.secretKey;
  }

  merchantFor(apiKey: string): Merchant | undefined {
    return this.byApiKey.get(apiKey)?.merchant;
  }
}

/** Checks the file's shape; every problem names its entry and field. */
export function validateMerchants(data: unknown, file: string): Array<Merchant & { credentials: Credential[] }> {
  const problems: string[] = [];
  if (!Array.isArray(data)) throw new ConfigError(`MERCHANTS_FILE ${file} must hold a JSON array of merchants`);
  if (data.length === 0) problems.push('the array is empty: no request could ever be admitted');
  const seenMerchants = new Set<string>();
  const seenKeys = new Set<string>();
  data.forEach((entry: unknown, i) => {
    const at = `merchants[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !['merchantId', 'tenantId', 'name', 'credentials'].includes(k));
    if (unknown.length) problems.push(`${at} has unknown field(s) ${unknown.join(', ')}`);
    for (const field of ['merchantId', 'tenantId'] as const) {
      if (typeof e[field] !== 'string' || !HEADER_GRAMMAR[field].pattern.test(e[field] as string)) problems.push(`${at}.${field} must be ${HEADER_GRAMMAR[field].rule}`);
    }
    if (typeof e.name !== 'string' || e.name.trim() === '') problems.push(`${at}.name must be a non-empty string`);
    if (typeof e.merchantId === 'string') {
      if (seenMerchants.has(e.merchantId)) problems.push(`${at}.merchantId ${e.merchantId} appears twice`);
      seenMerchants.add(e.merchantId);
    }
    if (!Array.isArray(e.credentials) || e.credentials.length === 0) {
      problems.push(`${at}.credentials must be a non-empty array of {apiKey, secretKey}`);
      return;
    }
    e.credentials.forEach((credential: unknown, j) => {
      const cat = `${at}.credentials[${j}]`;
      const c = (credential ?? {}) as Record<string, unknown>;
      if (typeof c.apiKey !== 'string' || !HEADER_GRAMMAR.apiKey.pattern.test(c.apiKey)) {
        problems.push(`${cat}.apiKey must be ${HEADER_GRAMMAR.apiKey.rule}`);
      } else {
        if (seenKeys.has(c.apiKey)) problems.push(`${cat}.apiKey is used by another credential`);
        seenKeys.add(c.apiKey);
      }
      if (typeof c.secretKey !== 'string' || c.secretKey.length < MIN_SECRET_LENGTH) problems.push(`${cat}.secretKey must be a string of at least ${MIN_SECRET_LENGTH} characters`);
    });
  });
  if (problems.length) throw new ConfigError(`MERCHANTS_FILE ${file} is invalid:\n- ${problems.join('\n- ')}`);
  return data as Array<Merchant & { credentials: Credential[] }>;
}
