// docs/runbooks.md, held to what an operator relies on at 3 a.m.: every log
// line it greps for is one the service writes, every operator's command it
// runs (merchants, attention, webhooks, reconcile) is one the service has, every Kubernetes object and repository file it names
// exists as named, and every link to another document lands on a heading of it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { HeadingAnchors } from '../src/docs/heading-anchors';
import { MERCHANTS_USAGE } from '../src/merchants/merchants-command';
import { OPERATOR_USAGE } from '../src/operator-commands';
import { RECONCILE_USAGE } from '../src/reconciliation/reconcile-command';

const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const runbooks = read('docs/runbooks.md');
/** Every line of the runbooks' shell blocks. */
const shellLines = [...runbooks.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap(([, block]) => (block as string).split('\n'));

/** A log pattern of the runbooks: `"msg":"x"` is the whole message, `"msg":"x` its start, and a pattern with no quote a part of it. */
interface LogPattern {
  text: string;
  mode: 'whole' | 'start' | 'part';
}

/** The patterns of every `grep -F` that a `logs …` line of the runbooks pipes through; those naming other fields, or a placeholder such as `<reqId>`, are left out. */
function logPatterns(): LogPattern[] {
  return shellLines
    .filter((line) => line.startsWith('logs '))
    .flatMap((line) => line.split(' | ').filter((step) => step.startsWith('grep -F ')))
    .flatMap((step) => [...step.matchAll(/'([^']*)'/g)].map(([, pattern]) => pattern as string))
    .filter((pattern) => !pattern.includes('<'))
    .flatMap((pattern): LogPattern[] => {
      if (pattern.startsWith('"msg":"')) {
        const text = pattern.slice('"msg":"'.length);
        return text.endsWith('"') ? [{ text: text.slice(0, -1), mode: 'whole' }] : [{ text, mode: 'start' }];
      }
      return pattern.includes('"') ? [] : [{ text: pattern, mode: 'part' }];
    });
}

const ANY = Symbol('a placeholder');
type Piece = string | typeof ANY;

/** Every string and template literal of the service's sources (not its tests), as characters and placeholders. */
function serviceLiterals(): Piece[][] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) files.push(full);
    }
  };
  walk(path.join(root, 'apps/api/src'));
  const unescape = (text: string) => text.replace(/\\(.)/g, '$1');
  // Comments are matched too, so that an apostrophe in one never opens a string.
  const tokens = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  return files.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(tokens)].flatMap(([, single, double, template]): Piece[][] => {
      if (template !== undefined) return [template.split(/(\$\{(?:[^{}]|\{[^{}]*\})*\})/).flatMap((part): Piece[] => (part.startsWith('${') ? [ANY] : [...unescape(part)]))];
      const plain = single ?? double;
      return plain === undefined ? [] : [[...unescape(plain)]];
    }),
  );
}

/** The most characters of `text` that a message made from `pieces` matches literally, with `text` its whole, its start or a part of it; -1 when it cannot. */
function literalMatch(pieces: Piece[], text: string, mode: LogPattern['mode']): number {
  const n = pieces.length;
  const m = text.length;
  // best[i][j]: most literal characters matched once pieces[0, i) and text[0, j) are matched; -1: unreachable.
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(-1));
  for (let i = 0; i <= n; i++) if (i === 0 || mode === 'part') (best[i] as number[])[0] = 0;
  let found = -1;
  for (let i = 0; i <= n; i++) {
    const row = best[i] as number[];
    for (let j = 0; j <= m; j++) {
      const here = row[j] as number;
      if (here < 0) continue;
      if (j === m && (mode !== 'whole' || i === n)) found = Math.max(found, here);
      const piece = pieces[i];
      if (piece === ANY) {
        if (j < m) row[j + 1] = Math.max(row[j + 1] as number, here);
        (best[i + 1] as number[])[j] = Math.max((best[i + 1] as number[])[j] as number, here);
      } else if (piece !== undefined && j < m && text[j] === piece) {
        (best[i + 1] as number[])[j + 1] = Math.max((best[i + 1] as number[])[j + 1] as number, here + 1);
      }
    }
  }
  return found;
}

/** The headings' anchors of a markdown file, as GitHub makes them, code blocks left out. */
function anchorsOf(markdown: string): string[] {
  const anchors = new HeadingAnchors();
  return [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) =>
    anchors.next((heading as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')),
  );
}

describe('docs/runbooks.md', () => {
  describe('greps for log lines the service writes', () => {
    const literals = serviceLiterals();
    const patterns = logPatterns();

    it('finds patterns to check, and none hidden in a grep -E', () => {
      expect(patterns.length).toBeGreaterThan(20);
      expect(shellLines.filter((line) => line.startsWith('logs ') && /grep -E '[^']*"msg"/.test(line))).toEqual([]);
    });

    it.each(patterns.map((pattern) => [`${pattern.mode}: ${pattern.text}`, pattern] as const))('%s', (_name, { text, mode }) => {
      // A part or a start must be mostly the message's own words, not what its placeholders stand for.
      const [head, tail] = [text.slice(0, 8), text.slice(-8)];
      const matched = literals
        .filter((pieces) => {
          const words = pieces.filter((piece) => piece !== ANY).join('');
          return words.includes(head) || words.includes(tail);
        })
        .map((pieces) => literalMatch(pieces, text, mode));
      expect(Math.max(-1, ...matched)).toBeGreaterThanOrEqual(Math.ceil(text.length / 2));
    });
  });

  it("states each alert's severity as alerts.yaml sets it, where it states one", () => {
    const rules = (parse(read('deploy/monitoring/alerts.yaml')) as { groups: Array<{ rules: Array<{ alert: string; labels?: { severity?: string } }> }> }).groups.flatMap((group) => group.rules);
    const stated = rules.flatMap((rule) => {
      const opening = new RegExp(`^## ${rule.alert}\\n\\n(Critical|Warning)\\.`, 'm').exec(runbooks)?.[1];
      return opening === undefined ? [] : [{ alert: rule.alert, stated: opening.toLowerCase(), set: rule.labels?.severity }];
    });
    expect(stated.length).toBeGreaterThan(10);
    expect(stated.filter((alert) => alert.stated !== alert.set)).toEqual([]);
  });

  it.each([
    ['merchants', MERCHANTS_USAGE],
    ['attention', OPERATOR_USAGE],
    ['webhooks', OPERATOR_USAGE],
    ['reconcile', RECONCILE_USAGE],
  ])('runs only %s commands and options that exist', (group, usage) => {
    // Commands as run, or quoted; `merchants left out …` and `merchants loaded` are log lines.
    const commands = [...runbooks.matchAll(new RegExp(`(?:node main\\.js |\`)${group} ([a-z][a-z-]*)`, 'g'))].map(([, command]) => command as string).filter((word) => !['left', 'loaded', 'could'].includes(word));
    expect(commands.length).toBeGreaterThan(0);
    const prefix = group === 'merchants' ? '' : `${group} `;
    expect([...new Set(commands)].filter((command) => !new RegExp(`^  ${prefix}${command}\\b`, 'm').test(usage) && command !== 'rotate-key')).toEqual([]);
    const options = [...runbooks.matchAll(new RegExp(`node main\\.js ${group} [^\\n\`]*(?:\\\\\\n[^\\n\`]*)*`, 'g'))].flatMap(([line]) => line.match(/--[a-z-]+/g) ?? []);
    expect(options.length).toBeGreaterThan(0);
    expect([...new Set(options)].filter((option) => !usage.includes(option))).toEqual([]);
  });

  it('names the Kubernetes objects deploy/kubernetes makes', () => {
    const deployment = parse(read('deploy/kubernetes/base/deployment.yaml')) as {
      metadata: { name: string };
      spec: { template: { metadata: { labels: Record<string, string> }; spec: { containers: Array<{ ports: Array<{ containerPort: number }>; env: Array<{ valueFrom?: { secretKeyRef?: { name: string } } }> }> } } };
    };
    const [container] = deployment.spec.template.spec.containers;
    const secrets = new Set(container?.env.flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []));
    const namespace = (parse(read('deploy/kubernetes/overlays/production/kustomization.yaml')) as { namespace: string }).namespace;
    const metricsService = (parse(read('deploy/kubernetes/base/metrics-service.yaml')) as { metadata: { name: string } }).metadata.name;
    const autoscaler = (parse(read('deploy/kubernetes/base/horizontal-pod-autoscaler.yaml')) as { metadata: { name: string } }).metadata.name;
    const kubectl = shellLines.filter((line) => line.includes('kubectl '));
    expect(kubectl.length).toBeGreaterThan(20);
    const names = (pattern: RegExp) => [...new Set(kubectl.flatMap((line) => [...line.matchAll(pattern)].map(([, name]) => name as string)))];
    expect(names(/ -n (\S+)/g)).toEqual([namespace]);
    expect(names(/(?:^|\s)deploy(?:ment)?\/([a-z0-9-]+)(?![\w/-])/g)).toEqual([deployment.metadata.name]);
    expect(names(/ -l app\.kubernetes\.io\/name=([a-z0-9-]+)/g)).toEqual([deployment.spec.template.metadata.labels['app.kubernetes.io/name']]);
    expect(names(/ secret (?:generic )?([a-z0-9-]+)/g).filter((name) => !secrets.has(name))).toEqual([]);
    expect(names(/ endpoints ([a-z0-9-]+)/g)).toEqual([metricsService]);
    expect(names(/ hpa ([a-z0-9-]+)/g)).toEqual([autoscaler]);
    const ports = new Set(container?.ports.map((port) => String(port.containerPort)));
    expect(names(/ (\d+):\d+/g).filter((port) => !ports.has(port))).toEqual([]);
  });

  it('names repository files that exist', () => {
    const files = [...new Set([...runbooks.matchAll(/`((?:apps|deploy|docs|libs|tools)\/[^`\s*…]+)`/g)].map(([, file]) => file as string))];
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
  });

  it('links to other documents at headings they have', () => {
    const links = [...runbooks.matchAll(/\]\(([^)#\s]+)(?:#([^)\s]+))?\)/g)].filter(([, target]) => !/^https?:/.test(target as string));
    expect(links.length).toBeGreaterThan(10);
    const broken = links.filter(([, target, anchor]) => {
      const file = path.join(root, 'docs', target as string);
      return !fs.existsSync(file) || (anchor !== undefined && !anchorsOf(fs.readFileSync(file, 'utf8')).includes(anchor));
    });
    expect(broken.map(([link]) => link)).toEqual([]);
  });
});
