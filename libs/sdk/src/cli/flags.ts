import { parseArgs } from 'node:util';
import { HEADER_GRAMMAR } from '@paysign/signing';
import { AMOUNT_IN_MAJOR_UNITS } from '@paysign/contracts';
import { UsageError } from './cli-io';

/** Parsed flag values by flag name. */
export type FlagValues = Record<string, string | boolean | undefined>;

/** Parses flags strictly: an unknown flag or a positional argument is bad input. */
export function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses flags strictly, and takes exactly `positionals` positional arguments, named for the message. */
export function parseWithPositionals<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], options: T, positionals: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals.length) {
    throw new UsageError(`expected ${positionals.map((name) => `<${name}>`).join(' ') || 'no argument'}, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((p) => `"${p}"`).join(' ')}.`);
  }
  return parsed;
}

/** The environment variable that stands in for a flag. */
const ENV_FALLBACKS: Record<string, string> = {
  '--secret-key': 'PAYSIGN_SECRET_KEY',
  '--api-key': 'PAYSIGN_API_KEY',
  '--merchant-id': 'PAYSIGN_MERCHANT_ID',
  '--tenant-id': 'PAYSIGN_TENANT_ID',
};

/** A flag's value, or its environment fallback; missing or empty is bad input. */
export function requiredFlag(value: unknown, flag: string, fallback?: string): string {
  const resolved = value === undefined ? fallback : String(value);
  if (resolved === undefined || resolved === '') {
    const env = ENV_FALLBACKS[flag];
    throw new UsageError(`${flag} is required${env ? ` (or set ${env})` : ''}.`);
  }
  return resolved;
}

export function optionalFlag(value: unknown, fallback: string | undefined): string | undefined {
  return value === undefined ? fallback : String(value);
}

/** A flag holding Unix seconds, checked against the X-Timestamp grammar of libs/signing. */
export function unixSecondsFlag(flag: string, text: string): number {
  if (!HEADER_GRAMMAR.timestamp.pattern.test(text)) throw new UsageError(`${flag} must be ${HEADER_GRAMMAR.timestamp.rule}, got "${text}".`);
  return Number(text);
}


/** A flag holding an amount in major units above 0, such as 500 or 3800.50. */
export function amountFlag(flag: string, text: string): number {
  if (!AMOUNT_IN_MAJOR_UNITS.test(text) || Number(text) <= 0) throw new UsageError(`${flag} must be an amount above 0 in major units with at most 2 decimal places, such as 500 or 3800.50, got "${text}".`);
  return Number(text);
}

/** A flag whose value is one of the contract's enum values, such as a status. */
export function oneOfFlag<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${text}".`);
  return text as T;
}

