import { hmacSha256Hex, parseCapturedRequest, readSigningHeaders, SigningError, verify, type CapturedRequest, type SigningDebugValues } from '@paysign/signing';
import { EXIT_FAILED, EXIT_OK, UsageError, readInputFile, type CliIo } from './cli-io';
import { parse, requiredFlag, unixSecondsFlag } from './flags';
import { findSigningMistake, type IntermediateValue } from './signing-mistakes';

const VERIFY_OPTIONS = {
  headers: { type: 'string' },
  header: { type: 'string', multiple: true },
  method: { type: 'string' },
  path: { type: 'string' },
  'body-file': { type: 'string' },
  'secret-key': { type: 'string' },
  now: { type: 'string' },
  'client-values': { type: 'string' },
} as const;

const INTERMEDIATE_VALUES: readonly IntermediateValue[] = ['canonicalBody', 'bodySha256Hex', 'baseString', 'signature'];

/** What `verify` prints as its last line. */
export interface VerifyOutput {
  valid: boolean;
  /** The failed check's code, as the service would answer it. */
  code?: string;
  /** The first intermediate value where the client and the server part, when it could be found. */
  differs?: IntermediateValue;
  explanation?: string;
  /** The server's values for this request. */
  server?: SigningDebugValues & { signature: string };
}

/**
 * Checks a captured request the way the service does, and on a mismatch says
 * which intermediate value differs: against the client's own values when given
 * (`--client-values`), or else by finding the known mistake that reproduces the
 * received signature. Exits 0 when the signature is valid, 1 when it is not.
 */
export async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, VERIFY_OPTIONS);
  const captured = readCaptured([...(values.headers === undefined ? [] : (await readText(io, '--headers', values.headers)).split('\n')), ...(values.header ?? [])]);
  const method = values.method ?? captured.method ?? requiredFlag(undefined, '--method (or a request line in --headers)');
  const path = values.path ?? captured.path ?? requiredFlag(undefined, '--path (or a request line in --headers)');
  const secretKey = requiredFlag(values['secret-key'], '--secret-key', io.env.PAYSIGN_SECRET_KEY);
  const body = values['body-file'] === undefined ? undefined : await readInputFile(io, '--body-file', values['body-file']);
  const clientValues = values['client-values'] === undefined ? undefined : parseClientValues(await readText(io, '--client-values', values['client-values']));

  const headers = readSigningHeaders(captured.headers);
  if (!headers.ok) return report(io, { valid: false, code: headers.code, explanation: headers.message });
  // A captured request is usually older than the window: check the time only when asked to.
  const now = values.now === undefined ? Number(headers.values.timestamp) : unixSecondsFlag('--now', values.now);
  const result = verify({ method, path, headers: captured.headers, body, now, secretFor: () => secretKey });

  if (result.ok) {
    const { canonicalBody, bodySha256Hex, baseString } = result;
    io.stdout('The signature is valid.');
    if (values.now === undefined) io.stdout('The timestamp window was not checked; pass --now to check it.');
    return report(io, { valid: true, server: { canonicalBody, bodySha256Hex, baseString, signature: headers.values.signature } });
  }
  if (result.code !== 'AUTH_SIGNATURE_MISMATCH') return report(io, { valid: false, code: result.code, explanation: result.message });

  const server = { ...result.debug, signature: hmacSha256Hex(secretKey, result.debug.baseString) };
  const mismatch: VerifyOutput = { valid: false, code: result.code, server };
  io.stdout('The signature does not match.');
  if (clientValues) {
    const differs = INTERMEDIATE_VALUES.find((name) => clientValues[name] !== undefined && clientValues[name] !== server[name]);
    if (differs) {
      io.stdout(`differs: ${differs}`);
      io.stdout(`  client: ${JSON.stringify(clientValues[differs])}`);
      io.stdout(`  server: ${JSON.stringify(server[differs])}`);
      io.stdout(`  first difference at character ${firstDifference(clientValues[differs] ?? '', server[differs])}`);
      const explanation =
        differs === 'signature'
          ? 'The base string agrees, so the client signed it with another secret key, or did not encode HMAC-SHA256 as lowercase hex.'
          : `The client's ${differs} differs from the server's; the values before it agree.`;
      io.stdout(explanation);
      return report(io, { ...mismatch, differs, explanation });
    }
    const explanation = 'The client values given agree with the server; the signature was computed with another secret key, or over other values than the ones given.';
    io.stdout(explanation);
    return report(io, { ...mismatch, explanation });
  }
  const known = findSigningMistake(
    { parts: baseStringParts(result.debug, headers.values, method, path), canonicalBody: result.debug.canonicalBody, body: body === undefined ? undefined : Buffer.from(body).toString('utf8') },
    secretKey,
    headers.values.signature,
  );
  if (known) {
    io.stdout(`differs: ${known.differs}`);
    io.stdout(known.explanation);
    return report(io, { ...mismatch, ...known });
  }
  const explanation =
    'No common mistake reproduces the received signature: check the secret key, or pass --client-values with the values your client computed (the output of paysign sign, or of sign() in the SDK) to find the value that differs.';
  io.stdout(explanation);
  return report(io, { ...mismatch, explanation });
}

function report(io: CliIo, output: VerifyOutput): number {
  if (!output.valid && output.code !== 'AUTH_SIGNATURE_MISMATCH' && output.explanation) io.stdout(`${output.code}: ${output.explanation}`);
  io.stdout(JSON.stringify(output));
  return output.valid ? EXIT_OK : EXIT_FAILED;
}

/** The captured head, parsed by libs/signing; a head it cannot read is bad input. */
function readCaptured(lines: readonly string[]): CapturedRequest {
  try {
    return parseCapturedRequest(lines);
  } catch (error) {
    if (error instanceof SigningError) throw new UsageError(error.message);
    throw error;
  }
}

function parseClientValues(text: string): Partial<Record<IntermediateValue, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('--client-values must be a JSON file, such as the output of paysign sign.');
  }
  const values: Partial<Record<IntermediateValue, string>> = {};
  for (const name of INTERMEDIATE_VALUES) {
    const value = (parsed as Record<string, unknown> | null)?.[name];
    if (typeof value === 'string') values[name] = value;
  }
  if (Object.keys(values).length === 0) throw new UsageError(`--client-values holds none of ${INTERMEDIATE_VALUES.join(', ')}.`);
  return values;
}

function baseStringParts(debug: SigningDebugValues, headers: { apiKey: string; nonce: string; timestamp: string }, method: string, path: string) {
  return { apiKey: headers.apiKey, nonce: headers.nonce, timestamp: headers.timestamp, method: method.toUpperCase(), requestPath: path, bodySha256Hex: debug.bodySha256Hex };
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

async function readText(io: CliIo, flag: string, path: string): Promise<string> {
  return Buffer.from(await readInputFile(io, flag, path)).toString('utf8');
}
