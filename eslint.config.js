const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const { API_LAYERS } = require('./apps/api/layers.js');
const providerNames = require('./apps/api/provider-names.js');

// Module boundaries: the protocol core and the contracts stand alone; the SDK and
// the service build on them; nothing builds on the service.
const depConstraints = [
  { sourceTag: 'scope:signing', onlyDependOnLibsWithTags: ['scope:signing'] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:contracts'] },
  { sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: ['scope:sdk', 'scope:signing', 'scope:contracts'] },
  // The service's tests stand the fake provider in for the upstream one; it depends on none of ours.
  { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:signing', 'scope:contracts', 'scope:test-double'] },
  // The alert drill stands the fake provider in for Paystack, as the service's tests do.
  { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:tools', 'scope:signing', 'scope:contracts', 'scope:sdk', 'scope:test-double'] },
  { sourceTag: 'scope:test-double', onlyDependOnLibsWithTags: [] },
  // The dashboard runs in the browser and speaks to the service only through the contract's types.
  { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard', 'scope:contracts'] },
  // End-to-end suites run the SDK against the real service; they ship nothing.
  { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:e2e', 'scope:sdk', 'scope:api', 'scope:signing', 'scope:contracts', 'scope:test-double'] },
];

// Inside the service, each folder of apps/api/src imports only the folders
// apps/api/layers.js allows it: infrastructure no feature, features no circle.
const apiFolderRules = Object.entries(API_LAYERS).map(([folder, allowed]) => {
  const refused = Object.keys(API_LAYERS).filter((other) => other !== folder && !allowed.includes(other));
  return {
    files: [`apps/api/src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: refused.map((other) => ({
            // Files of a folder's subfolders (the provider wing's) reach the others two levels up.
            group: [`../${other}`, `../${other}/*`, `../../${other}`, `../../${other}/*`],
            message: `apps/api/src/${folder} may not import ${other}: ${folder} may import only ${allowed.join(', ') || 'nothing of the service'} (apps/api/layers.js). Move the shared part down, or pass it in.`,
          })),
        },
      ],
    },
  };
});

module.exports = [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/src/generated/**', '.nx/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // End-to-end suites start the service through its testing entry, the one
    // import of the app that anything may make.
    files: ['apps/sdk-e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: ['@paysign/api/testing'], depConstraints }],
    },
  },
  {
    // The dashboard's components: hooks called unconditionally, with the dependencies they read.
    files: ['apps/dashboard/**/*.tsx', 'apps/dashboard/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  ...apiFolderRules,
  {
    // A particular provider is named only in its folder of the wing, the registry's list and config (apps/api/provider-names.js).
    files: ['apps/api/src/**/*.ts'],
    plugins: { paysign: { rules: { 'provider-names-stay-in-their-wing': providerNames.rule } } },
    rules: { 'paysign/provider-names-stay-in-their-wing': 'error' },
  },
  {
    // The ledger's tables are its own: a product asks the ledger (Ledger's methods, LEDGER_SQL for an invariant), never names them.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/ledger/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=/\\bledger_[a-z_]+/]', 'TemplateElement[value.raw=/\\bledger_[a-z_]+/]'].map((selector) => ({
          selector,
          message: 'A ledger_* table is named outside apps/api/src/ledger: ask the ledger for what you need (Ledger, or LEDGER_SQL in an invariant).',
        })),
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
