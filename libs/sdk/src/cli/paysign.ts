import { EXIT_OK, EXIT_USAGE, EXIT_FAILED, UsageError, type CliIo } from './cli-io';
import { curlCommand } from './curl-command';
import { signCommand } from './sign-command';

const USAGE = `Usage: paysign <command> [flags]

Commands:
  sign     Sign a request and print every intermediate value as JSON.
  curl     Print a ready-to-run signed curl command (--base-url, default http://localhost:3000).

Signing flags:
  --api-key K        X-API-KEY (or PAYSIGN_API_KEY)
  --secret-key S     secret key (prefer PAYSIGN_SECRET_KEY: flags show in the process list)
  --method M         HTTP method
  --path P           path as sent, including /payment and any ?query
  --body JSON        the exact JSON text that will be sent
  --body-file F      read the exact body bytes from a file
  --nonce N          default: a fresh UUID
  --timestamp T      Unix seconds; default: now
  --merchant-id ID   X-Merchant-ID (or PAYSIGN_MERCHANT_ID)
  --tenant-id ID     X-Tenant-ID (or PAYSIGN_TENANT_ID)

Exit codes: 0 done, 1 failed, 2 bad input.`;

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number | void>> = {
  sign: signCommand,
  curl: curlCommand,
};

/** Runs the CLI and returns its exit code. */
export async function runPaysign(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`paysign: unknown command "${command}". Run paysign --help.`);
    return EXIT_USAGE;
  }
  try {
    return (await run(args, io)) ?? EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`paysign ${command}: ${error.message}`);
      return EXIT_USAGE;
    }
    io.stderr(`paysign ${command}: ${(error as Error).message}`);
    return EXIT_FAILED;
  }
}
