// Fails when libs/contracts/src/generated no longer matches openapi/: it
// generates in memory and compares every file's whole text, header and body,
// so the working tree is untouched. `node check-contract-drift.js [dir]`.
const path = require('node:path');
const { render, differences, DEFAULT_OUT } = require('./generate-contracts');

const dir = path.resolve(process.argv[2] ?? DEFAULT_OUT);
const stale = differences(dir, render());
const where = path.relative(path.join(__dirname, '..', '..'), dir) || dir;

if (stale.length > 0) {
  console.error(`${where} does not match openapi/: ${stale.join('; ')}. Run \`npm run generate\`, which regenerates it from the contract, and commit the result; never edit it by hand.`);
  process.exit(1);
}
console.log(`${where} matches openapi/.`);
