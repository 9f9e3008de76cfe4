import { EXIT_OK, EXIT_USAGE, EXIT_FAILED, UsageError, type CliIo } from './cli-io';
import { batchesCommand } from './batches-command';
import { curlCommand } from './curl-command';
import { exportCommand } from './export-command';
import { listenCommand } from './listen-command';
import { payoutsCommand } from './payouts-command';
import { refundsCommand } from './refunds-command';
import { requestCommand } from './request-command';
import { signCommand } from './sign-command';
import { verifyCommand } from './verify-command';

const USAGE = `Usage: paysign <command> [flags]

Commands:
  sign     Sign a request and print every intermediate value as JSON.
  curl     Print a ready-to-run signed curl command.
  request  Send a signed request; print the status, headers and body. Exits 1 on a non-2xx answer.
  verify   Check a captured request's signature; on a mismatch, say which intermediate value differs.
  listen   Receive webhooks locally: verify each delivery and print a line for it.
  payouts approve <reference>             Approve a payout waiting for approval, as a second credential.
  payouts reject <reference> [--reason R] Reject it: it is cancelled and its money released.
  batches create --file F --reference R --title T [--dry-run] [--submit]
           Create a payout batch from a CSV file (columns reference, bankCode,
           accountNumber, amount, narration, optional expectedAccountName).
           Every row is enquired first and reported with the account's name;
           with a problem on any row, or --dry-run, nothing is created.
           Run again after a partial failure: rows already in the batch are kept.
  batches show <reference>                Show a batch and every payout in it.
  batches submit <reference> --count N --total X
           Submit a batch holding exactly N payouts totalling X naira, the
           numbers you expect from your own records.
  refunds create --payin P --reference R [--amount X] [--reason WHY]
                 [--customer-note T] [--merchant-note T] [--notify-url URL]
           Refund a successful payin: X of it, or everything not yet refunded.
           R is the refund's idempotency key: the same command again shows the
           refund as it is now and creates nothing.
  refunds show <reference>                Show a refund: where it is, and why.
  refunds list [--status S] [--payin P] [--created-from T] [--created-to T]
               [--limit N] [--cursor C]
           One page of refunds, newest first; when more match, it prints the
           --cursor that continues.
  export <payins|payouts|refunds|balance-entries|settlements> --from T --to T
         [--status S] [--currency C] [--type T] [--balance B]
         [--batch-reference R] [--payin-reference P] [--retries N] > file.csv
           A report as CSV on standard output (docs/reports.md): from (inclusive)
           to (exclusive), RFC 3339. A cut transfer is resumed after the last
           complete row, up to N tries in a row without progress (default 5);
           then it exits 1, the file holding complete rows only.

Flags of sign, curl and request:
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
  --base-url URL     curl and request: the service (or PAYSIGN_BASE_URL); default http://localhost:3000

Flags of verify:
  --headers F        the captured request head: an optional request line, then "Name: value" lines
  --header 'N: V'    one header line; repeatable, added to --headers
  --method M         default: from the request line
  --path P           default: from the request line
  --body-file F      the exact body bytes as sent; omit for no body
  --secret-key S     the secret key (prefer PAYSIGN_SECRET_KEY)
  --now T            check the timestamp window at Unix seconds T; default: not checked
  --client-values F  JSON of the client's canonicalBody, bodySha256Hex, baseString, signature
                     (the output of paysign sign), compared value by value

Flags of listen:
  --secret S         a whsec_ webhook secret (or PAYSIGN_WEBHOOK_SECRET); repeat to accept several
  --port N           default 4242; --host H default 127.0.0.1
  --fail-first N     answer 500 to the first N deliveries of each event, to watch the retries
  --status CODE      answer every delivery with CODE, such as 410
  --tolerance S      seconds webhook-timestamp may be from this clock; default 300
  --print-body       print each verified body too

Flags of payouts, batches, refunds and export: --api-key, --secret-key, --merchant-id, --tenant-id
and --base-url as above (or their PAYSIGN_* variables); approving needs a credential with
the payouts:approve role that did not create the payout or batch, and creating a refund
one with the refunds:create role.

Exit codes: 0 done, 1 failed (a non-2xx answer, an invalid signature), 2 bad input.`;

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number | void>> = {
  sign: signCommand,
  curl: curlCommand,
  request: requestCommand,
  verify: verifyCommand,
  listen: listenCommand,
  payouts: payoutsCommand,
  batches: batchesCommand,
  refunds: refundsCommand,
  export: exportCommand,
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
