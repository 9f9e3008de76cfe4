import { baseUrlFrom, BASE_URL_OPTION } from './base-url';
import type { CliIo } from './cli-io';
import { signFromFlags } from './signing-flags';

/** Prints a ready-to-run curl command carrying a fresh signature. */
export async function curlCommand(args: string[], io: CliIo): Promise<void> {
  const { signed, values } = await signFromFlags(args, io, BASE_URL_OPTION);
  const parts = ['curl', '-sS', '-X', signed.method, shellQuote(`${baseUrlFrom(values, io)}${signed.path}`)];
  for (const [name, value] of Object.entries(signed.result.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (signed.body !== undefined) {
    parts.push('-H', shellQuote('Content-Type: application/json'), '--data-binary', shellQuote(Buffer.from(signed.body).toString('utf8')));
  }
  io.stdout(parts.join(' '));
}

/** Quotes for POSIX shells: the bytes inside single quotes are sent exactly as signed. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
