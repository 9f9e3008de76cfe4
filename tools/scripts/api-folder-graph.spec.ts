import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const graph = require('./api-folder-graph.js') as {
  folderEdges(src?: string): Map<string, string[]>;
  findCircle(edges: Map<string, string[]>): string[] | undefined;
  disallowed(edges: Map<string, string[]>, layers?: Record<string, string[]>): string[];
};

function sourceTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'api-folders-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the folder graph of apps/api/src', () => {
  it('has no circle, and only the imports apps/api/layers.js allows', () => {
    const edges = graph.folderEdges();
    expect(graph.findCircle(edges)).toBeUndefined();
    expect(graph.disallowed(edges)).toEqual([]);
    // The rules the table exists for: webhooks knows nothing of payins, infrastructure nothing of features.
    expect(edges.get('webhooks')).not.toContain('payins');
    expect(edges.get('errors')).not.toContain('checkout');
    expect(edges.get('config')).toEqual([]);
  });

  it('counts an import from a subfolder (the provider wing\'s) as its folder\'s, and an import within the folder as none', () => {
    const src = sourceTree({
      'providers/paystack/paystack-api.ts': "import { UpstreamClient } from '../../upstream/upstream-client';\nimport type { PayoutTransfers } from '../ports/payout-transfers.port';\n",
      'providers/provider-list.ts': "import { PAYSTACK } from './paystack/paystack.provider';\n",
      'providers/sandbox/sandbox.provider.ts': "import { settle } from '../../payins/provider-payments';\n",
      'upstream/upstream-client.ts': '',
      'payins/provider-payments.ts': '',
    });
    const edges = graph.folderEdges(src);
    expect(edges.get('providers')).toEqual(['payins', 'upstream']);
    expect(graph.disallowed(edges, { providers: ['upstream'], upstream: [], payins: ['providers'] })).toEqual(['providers imports payins']);
  });

  it('finds a circle a new import would make, and names the import the table refuses', () => {
    const src = sourceTree({
      'payins/payins.service.ts': "import { deliver } from '../webhooks/webhook-dispatcher';\n",
      'webhooks/webhook-dispatcher.ts': "import type {\n  StoredPayin,\n} from '../payins/payin-repository.interface';\n",
      'config/app-config.ts': '',
    });
    const edges = graph.folderEdges(src);
    expect(graph.findCircle(edges)).toEqual(['payins', 'webhooks', 'payins']);
    expect(graph.disallowed(edges, { payins: ['webhooks'], webhooks: [], config: [] })).toEqual(['webhooks imports payins']);
  });
});
