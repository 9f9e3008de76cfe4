import { parseArgs } from 'node:util';
import { sign, SigningError, type SignResult } from '@paysign/signing';
import { UsageError, readInputFile, type CliIo } from './cli-io';

export const SIGN_OPTIONS = {
  'api-key': { type: 'string' },
  'secret-key': { type: 'string' },
  nonce: { type: 'string' },
  timestamp: { type: 'string' },
  method: { type: 'string' },
  path: { type: 'string' },
  body: { type: 'string' },
  'body-file': { type: 'string' },
  'merchant-id': { type: 'string' },
  'tenant-id': { type: 'string' },
} as const;

/** Parsed flag values by flag name. */
export type FlagValues = Record<string, string | boolean | undefined>;

export interface SignedRequestOutput {
  canonicalBody: string;
  bodySha256Hex: string;
  baseString: string;
  signature: string;
  headers: SignResult['headers'];
}

export interface SignedRequest {
  result: SignResult;
  method: string;
  path: string;
  body: Uint8Array | undefined;
}

/** Parses the signing flags shared by `sign`, `curl` and `request`, and signs. */
export async function signFromFlags(args: string[], io: CliIo, extraOptions: Record<string, { type: 'string' | 'boolean' }> = {}) {
  const values: FlagValues = parse(args, { ...SIGN_OPTIONS, ...extraOptions }).values;
  const apiKey = requiredFlag(values['api-key'], '--api-key', io.env.PAYSIGN_API_KEY);
  const secretKey = requiredFlag(values['secret-key'], '--secret-key', io.env.PAYSIGN_SECRET_KEY);
  const method = requiredFlag(values.method, '--method').toUpperCase();
  const path = requiredFlag(values.path, '--path');
  if (values.body !== undefined && values['body-file'] !== undefined) throw new UsageError('Give --body or --body-file, not both.');
  const body = values['body-file'] !== undefined ? await readInputFile(io, '--body-file', String(values['body-file'])) : values.body !== undefined ? Buffer.from(String(values.body), 'utf8') : undefined;
  const timestamp = values.timestamp === undefined ? io.now() : parseTimestamp(String(values.timestamp));
  try {
    const result = sign({
      apiKey,
      secretKey,
      nonce: values.nonce === undefined ? io.randomUUID() : String(values.nonce),
      timestamp,
      method,
      path,
      body,
      merchantId: optional(values['merchant-id'], io.env.PAYSIGN_MERCHANT_ID),
      tenantId: optional(values['tenant-id'], io.env.PAYSIGN_TENANT_ID),
    });
    return { signed: { result, method, path, body } satisfies SignedRequest, values };
  } catch (error) {
    if (error instanceof SigningError) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}

export async function signCommand(args: string[], io: CliIo): Promise<void> {
  const { signed } = await signFromFlags(args, io);
  const { canonicalBody, bodySha256Hex, baseString, signature, headers } = signed.result;
  const output: SignedRequestOutput = { canonicalBody, bodySha256Hex, baseString, signature, headers };
  io.stdout(JSON.stringify(output));
}

export function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A flag's value, or its environment fallback; missing or empty is bad input. */
export function requiredFlag(value: unknown, flag: string, fallback?: string): string {
  const resolved = value === undefined ? fallback : String(value);
  if (resolved === undefined || resolved === '') {
    const envHint = flag === '--secret-key' ? ' (or set PAYSIGN_SECRET_KEY)' : flag === '--api-key' ? ' (or set PAYSIGN_API_KEY)' : '';
    throw new UsageError(`${flag} is required${envHint}.`);
  }
  return resolved;
}

function optional(value: unknown, fallback: string | undefined): string | undefined {
  return value === undefined ? fallback : String(value);
}

function parseTimestamp(text: string): number {
  if (!/^[0-9]{1,12}$/.test(text)) throw new UsageError(`--timestamp must be Unix epoch seconds (digits only), got "${text}".`);
  return Number(text);
}
