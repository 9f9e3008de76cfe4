// The provider wing (apps/api/src/providers): only a provider's own folder,
// the registry's list and config/ may name a particular provider. Everything
// else reaches providers through the ports and the registry, by the id a
// record carries, so that adding or retiring one never touches a product.
// ESLint (paysign/provider-names-stay-in-their-wing) refuses the name
// anywhere else in apps/api/src, in code, strings and comments alike.
const fs = require('node:fs');
const path = require('node:path');

const PROVIDERS_DIR = path.join(__dirname, 'src', 'providers');
/** Folders of the wing that are not a provider; the sandbox is also the service's mode, named everywhere. */
const NOT_NAMED = new Set(['ports', 'sandbox']);

/** The providers whose names are kept in their folders: every folder of the wing but the ports and the sandbox. */
function namedProviders(dir = PROVIDERS_DIR) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_NAMED.has(entry.name))
    .map((entry) => entry.name);
}

/** Where a file may name `provider`: its own folder, the registry's list, and config. */
function mayName(file, provider) {
  const relative = path.relative(path.join(__dirname, 'src'), file).split(path.sep).join('/');
  return relative.startsWith(`providers/${provider}/`) || relative === 'providers/provider-list.ts' || relative.startsWith('config/');
}

const rule = {
  meta: { type: 'problem', schema: [], messages: { named: '{{provider}} is named outside its folder: {{file}} must reach it through the provider wing (a port, the registry, or the id a record carries). Move the code into apps/api/src/providers/{{provider}}/, or use the id from config.' } },
  create(context) {
    const file = context.filename;
    return {
      Program(node) {
        const text = context.sourceCode.getText();
        for (const provider of namedProviders()) {
          if (mayName(file, provider)) continue;
          const at = text.toLowerCase().indexOf(provider.toLowerCase());
          if (at === -1) continue;
          const loc = context.sourceCode.getLocFromIndex(at);
          context.report({ node, loc, messageId: 'named', data: { provider, file: path.relative(path.join(__dirname, '..', '..'), file) } });
        }
      },
    };
  },
};

module.exports = { namedProviders, mayName, rule };
