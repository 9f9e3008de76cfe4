import { EXIT_FAILED, EXIT_OK, type CliIo } from './cli-io';
import { baseUrlFrom, BASE_URL_OPTION } from './base-url';
import { signFromFlags } from './signing-flags';

/**
 * Sends one signed request and prints what came back: the status line, the
 * response headers and the body exactly as received. Exits 0 on a 2xx answer
 * and 1 otherwise, so that scripts can branch on it.
 */
export async function requestCommand(args: string[], io: CliIo): Promise<number> {
  const { signed, values } = await signFromFlags(args, io, BASE_URL_OPTION);
  const url = `${baseUrlFrom(values, io)}${signed.path}`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.result.headers)) if (value !== undefined) headers[name] = value;
  if (signed.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await io.fetch(url, { method: signed.method, headers, body: signed.body });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    io.stderr(`paysign request: could not reach ${url}: ${cause?.message ?? (error as Error).message}. Check --base-url and that the service is running.`);
    return EXIT_FAILED;
  }
  io.stdout(`HTTP ${response.status} ${response.statusText}`.trimEnd());
  for (const [name, value] of response.headers) io.stdout(`${name}: ${value}`);
  io.stdout('');
  io.stdout(await response.text());
  return response.ok ? EXIT_OK : EXIT_FAILED;
}
