import type { SignResult } from '@paysign/signing';
import type { CliIo } from './cli-io';
import { signFromFlags } from './signing-flags';

export interface SignedRequestOutput {
  canonicalBody: string;
  bodySha256Hex: string;
  baseString: string;
  signature: string;
  headers: SignResult['headers'];
}

/** Prints every intermediate value of a signature as one JSON line. */
export async function signCommand(args: string[], io: CliIo): Promise<void> {
  const { signed } = await signFromFlags(args, io);
  const { canonicalBody, bodySha256Hex, baseString, signature, headers } = signed.result;
  const output: SignedRequestOutput = { canonicalBody, bodySha256Hex, baseString, signature, headers };
  io.stdout(JSON.stringify(output));
}
