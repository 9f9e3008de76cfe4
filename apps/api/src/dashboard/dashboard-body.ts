import type { FastifyRequest } from 'fastify';
import { ApiException, validationFailed } from '../errors/api.exception';
import { displayTextError } from '../http/display-text';
import { REFERENCE_PATTERN } from '../http/request-rules';

/**
 * The JSON object a dashboard call sent. The service keeps JSON bodies as
 * bytes (http/json-body.ts) for the signed API; the dashboard is not signed,
 * and its bodies may nest (a passkey's response), so they are parsed here.
 */
export function jsonObject(request: FastifyRequest): Record<string, unknown> {
  const raw = request.body;
  if (raw === undefined || raw === null) return {};
  if (!Buffer.isBuffer(raw)) throw new ApiException('UNSUPPORTED_MEDIA_TYPE', {});
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiException('INVALID_JSON', { detail: 'The body is not JSON. Send a JSON object with Content-Type: application/json.' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ApiException('BODY_NOT_OBJECT', { detail: "The body is JSON but not an object. Send a JSON object of the operation's fields." });
  return parsed as Record<string, unknown>;
}

type IntegerRule = { min: number; max: number; describe: string };

/** Reads fields one by one, collecting every problem, and refuses fields the operation does not know. */
export class FieldReader {
  private readonly problems: Array<{ field: string; code: string; message: string }> = [];

  constructor(
    private readonly body: Record<string, unknown>,
    known: readonly string[],
  ) {
    for (const field of Object.keys(body)) if (!known.includes(field)) this.problems.push({ field, code: 'unknown', message: `${field} is not a field of this operation; send only ${known.join(', ')}.` });
  }

  string(field: string, rule: { pattern?: RegExp; min?: number; max: number; describe: string; optional?: boolean }): string {
    const value = this.body[field];
    if (value === undefined && rule.optional) return '';
    if (typeof value !== 'string' || value.length < (rule.min ?? 1) || value.length > rule.max || (rule.pattern && !rule.pattern.test(value))) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'pattern', message: `${field} must be ${rule.describe}.` });
      return '';
    }
    return value;
  }

  /** Text a person will read (a narration, a title, a reason): 1 to `max` characters that display as they read (displayTextError), never a control character such as NUL. */
  text(field: string, rule: { max: number; describe: string }): string {
    const value = this.string(field, { ...rule, pattern: /\S/ });
    const problem = value === '' ? undefined : displayTextError(field, value);
    if (problem === undefined) return value;
    this.problems.push(problem);
    return '';
  }

  oneOf<T extends string>(field: string, allowed: readonly T[]): T {
    const value = this.body[field];
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'enum', message: `${field} must be one of ${allowed.join(', ')}.` });
      return allowed[0] as T;
    }
    return value as T;
  }

  /** A non-empty list of strings of at most 64 characters. */
  list(field: string): string[] | undefined {
    const value = this.body[field];
    if (!Array.isArray(value) || value.length === 0 || value.length > 64 || !value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 64)) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'type', message: `${field} must be a list of event types, such as ["payin.successful"], or ["*"] for every type.` });
      return undefined;
    }
    return value as string[];
  }

  boolean(field: string): boolean {
    const value = this.body[field];
    if (typeof value !== 'boolean') this.problems.push({ field, code: value === undefined ? 'required' : 'type', message: `${field} must be true or false.` });
    return value === true;
  }

  /** Problems found by a check of its own (a URL, an event selection). */
  add(...problems: Array<ReadonlyArray<{ field: string; code: string; message: string }>>): void {
    for (const list of problems) this.problems.push(...list);
  }

  /** A non-empty list of distinct values of `allowed`. */
  roles<T extends string>(field: string, allowed: readonly T[]): T[] {
    const value = this.body[field];
    if (!Array.isArray(value) || value.length === 0 || value.length > allowed.length || new Set(value).size !== value.length || !value.every((v) => (allowed as readonly unknown[]).includes(v))) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'enum', message: `${field} must be a list of distinct roles from ${allowed.join(', ')}.` });
      return [];
    }
    return value as T[];
  }

  /** A whole number from `min` to `max`, such as an amount in kobo; undefined only when optional and absent (0 when refused: `done` then throws). */
  integer(field: string, rule: IntegerRule & { optional?: false }): number;
  integer(field: string, rule: IntegerRule & { optional: true }): number | undefined;
  integer(field: string, rule: IntegerRule & { optional?: boolean }): number | undefined {
    const value = this.body[field];
    if (value === undefined && rule.optional) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < rule.min || value > rule.max) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'range', message: `${field} must be ${rule.describe}.` });
      return 0;
    }
    return value;
  }

  object(field: string, options: { optional?: boolean } = {}): Record<string, unknown> | undefined {
    const value = this.body[field];
    if (value === undefined && options.optional) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problems.push({ field, code: value === undefined ? 'required' : 'type', message: `${field} must be an object.` });
      return undefined;
    }
    return value as Record<string, unknown>;
  }

  /** Throws VALIDATION_FAILED with every problem found, if any. */
  done(): void {
    if (this.problems.length > 0) throw validationFailed(this.problems);
  }
}

export const EMAIL = { pattern: /^[^\s@<>()",;:]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,}$/, max: 254, describe: 'an email address, such as ada@example.com' };
/** A merchant's reference for a payout or batch, as the merchant API takes it. */
export const REFERENCE = { pattern: REFERENCE_PATTERN, max: 64, describe: '1 to 64 characters from A-Z, a-z, 0-9, dot, underscore and hyphen, not only dots, such as PAYOUT-2026-0001' };
export const TOTP_CODE = { pattern: /^[0-9]{6}$/, max: 6, describe: 'the 6 digits your authenticator app shows now' };
