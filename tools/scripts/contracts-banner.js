// Prepends the do-not-edit banner to a file that openapi-typescript generated.
const fs = require('node:fs');

const BANNER = [
  '/*',
  ' * GENERATED FILE, DO NOT EDIT.',
  ' * Source: openapi/payment-api.yaml. Regenerate with `npx nx run contracts:generate`.',
  ' */',
  '',
].join('\n');

const file = process.argv[2];
const body = fs.readFileSync(file, 'utf8');
fs.writeFileSync(file, body.startsWith(BANNER) ? body : BANNER + body);
