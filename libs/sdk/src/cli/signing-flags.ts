import { sign, SigningError, type SignResult } from '@paysign/signing';
import { UsageError, readInputFile, type CliIo } from './cli-io';
import { optionalFlag, parse, requiredFlag, unixSecondsFlag, type FlagValues } from './flags';

/** The flags that describe a request to sign, shared by `sign`, `curl` and `request`. */
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

export interface SignedRequest {
  result: SignResult;
  method: string;
  path: string;
  body: Uint8Array | undefined;
}

/** Parses the signing flags (plus a command's own) and signs the request they describe. */
export async function signFromFlags(args: string[], io: CliIo, extraOptions: Record<string, { type: 'string' | 'boolean' }> = {}) {
  const values: FlagValues = parse(args, { ...SIGN_OPTIONS, ...extraOptions }).values;
  const apiKey = requiredFlag(values['api-key'], '--api-key', io.env.PAYSIGN_API_KEY);
  const secretKey = requiredFlag(values['secret-key'], '--secret-key', io.env.PAYSIGN_SECRET_KEY);
  const method = requiredFlag(values.method, '--method').toUpperCase();
  const path = requiredFlag(values.path, '--path');
  if (values.body !== undefined && values['body-file'] !== undefined) throw new UsageError('Give --body or --body-file, not both.');
  const body = values['body-file'] !== undefined ? await readInputFile(io, '--body-file', String(values['body-file'])) : values.body !== undefined ? Buffer.from(String(values.body), 'utf8') : undefined;
  const timestamp = values.timestamp === undefined ? io.now() : unixSecondsFlag('--timestamp', String(values.timestamp));
  try {
    const result = sign({
      apiKey,
      secretKey,
      nonce: values.nonce === undefined ? io.randomUUID() : String(values.nonce),
      timestamp,
      method,
      path,
      body,
      merchantId: optionalFlag(values['merchant-id'], io.env.PAYSIGN_MERCHANT_ID),
      tenantId: optionalFlag(values['tenant-id'], io.env.PAYSIGN_TENANT_ID),
    });
    return { signed: { result, method, path, body } satisfies SignedRequest, values };
  } catch (error) {
    if (error instanceof SigningError) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}
