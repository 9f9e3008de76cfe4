// The merchants command in a process of its own, which runs when told to: a
// test starts several, waits for each to say `ready`, then lets them all go
// at once, so that their edits of one file meet.
import { runMerchantsCommand } from '../../src/merchants/merchants-command';

process.stdout.write('ready\n');
process.stdin.once('data', () => {
  const result = runMerchantsCommand(process.argv.slice(2), process.env);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exitCode = result.code;
  process.stdin.destroy();
});
