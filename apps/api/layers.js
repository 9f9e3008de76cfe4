// The folders of apps/api/src and the folders each may import, lowest first.
// ESLint (no-restricted-imports) refuses any other import between them, and
// tools/scripts/api-folder-graph.js draws the graph and checks it has no circle.
// Files at the root of src (the app factory, the module, the schema) compose
// everything and may import any folder.

/** Infrastructure: no feature, and no folder above itself. */
const INFRASTRUCTURE = {
  config: [],
  // Sealing secrets at rest under the keyring the configuration reads.
  secrets: ['config'],
  money: [],
  logging: ['config'],
  metrics: ['config'],
  stores: ['config', 'metrics'],
  errors: ['config', 'stores'],
  lifecycle: ['config', 'logging'],
  redis: ['config', 'logging', 'stores'],
  db: ['config', 'logging', 'stores'],
  jobs: ['config', 'logging', 'metrics', 'stores'],
  http: ['config', 'errors', 'logging', 'metrics', 'stores'],
  upstream: ['config', 'logging', 'metrics'],
};
const BELOW_FEATURES = [...Object.keys(INFRASTRUCTURE), 'events'];

/** Each folder: what it may import. Features import infrastructure and events, and only the features listed, never in a circle. */
const API_LAYERS = {
  ...INFRASTRUCTURE,
  events: Object.keys(INFRASTRUCTURE),
  merchants: BELOW_FEATURES,
  nonce: BELOW_FEATURES,
  'rate-limit': BELOW_FEATURES,
  signing: [...BELOW_FEATURES, 'merchants', 'nonce', 'rate-limit'],
  banks: BELOW_FEATURES,
  // The provider wing: the ports, one folder per adapter, and the registry. Products reach a provider only through it.
  providers: [...BELOW_FEATURES, 'banks'],
  accounts: [...BELOW_FEATURES, 'banks', 'providers', 'rate-limit'],
  ledger: [...BELOW_FEATURES, 'merchants'],
  webhooks: [...BELOW_FEATURES, 'merchants'],
  'webhook-endpoints': [...BELOW_FEATURES, 'merchants', 'webhooks'],
  // The operator's actions on objects the providers left unsettled: through the features' own stores and checks.
  attention: [...BELOW_FEATURES, 'merchants', 'payins', 'payouts', 'refunds'],
  payins: [...BELOW_FEATURES, 'ledger', 'merchants', 'providers', 'webhooks'],
  payouts: [...BELOW_FEATURES, 'accounts', 'ledger', 'merchants', 'providers', 'webhooks'],
  refunds: [...BELOW_FEATURES, 'accounts', 'ledger', 'merchants', 'payins', 'providers', 'webhooks'],
  // Settlements to the merchant's own bank: a settlement's transfer is a payout row, sent by the payouts.
  settlements: [...BELOW_FEATURES, 'accounts', 'ledger', 'merchants', 'payouts', 'providers'],
  checkout: [...BELOW_FEATURES, 'merchants', 'payins', 'providers'],
  // Merchants' CSV reports, read from the features' tables with their own rules (a payin's status at the time asked).
  reports: [...BELOW_FEATURES, 'ledger', 'payins', 'payouts', 'refunds', 'settlements'],
  'provider-webhooks': [...BELOW_FEATURES, 'providers', 'payins', 'payouts', 'refunds'],
  // The daily comparison of each provider's records with ours, and the operator's settling of what disagrees: through the objects' own state machines, or a correction journal.
  reconciliation: [...BELOW_FEATURES, 'ledger', 'merchants', 'providers', 'payins', 'payouts', 'refunds'],
  health: [...BELOW_FEATURES, 'nonce'],
  docs: BELOW_FEATURES,
  // The merchant dashboard: its own sessions and members, and the features' own services for what a member does.
  dashboard: [...BELOW_FEATURES, 'accounts', 'banks', 'docs', 'merchants', 'ledger', 'payins', 'payouts', 'refunds', 'reports', 'settlements', 'webhooks', 'webhook-endpoints'],
};

/** The folders in an order where each comes after everything it may import; throws on a circle in the table itself. */
function layerOrder(layers = API_LAYERS) {
  const order = [];
  const state = new Map();
  const visit = (folder, path) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'visiting') throw new Error(`apps/api/layers.js: a circle: ${[...path, folder].join(' -> ')}`);
    state.set(folder, 'visiting');
    for (const below of layers[folder] ?? []) visit(below, [...path, folder]);
    state.set(folder, 'done');
    order.push(folder);
  };
  for (const folder of Object.keys(layers)) visit(folder, []);
  return order;
}

layerOrder();

module.exports = { API_LAYERS, INFRASTRUCTURE, layerOrder };
