// deploy/monitoring, checked for what an operator relies on when the pager
// goes off or stays silent: promtool accepts the alert rules and passes their
// unit tests; every alert has a case where it fires and one where it stays
// quiet, and each case fails when its rule is broken (made to never fire, or
// to fire whatever happens), so the tests prove something; every metric the
// alerts and the dashboard read is one the real service exports, and every
// query of the dashboard is valid PromQL. A rule or panel on a renamed metric
// would otherwise stay quiet forever. Every alert's runbook_url is built on
// the base URL the service exports, and ends in the alert's own section of
// docs/runbooks.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { describeWithPromtool, promtool } from './support/promtool';
import { startTestApp, type TestApp } from './support/test-app';

const root = path.resolve(__dirname, '../../..');
const MONITORING = path.join(root, 'deploy/monitoring');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: Array<{ name: string; rules: AlertRule[] }>;
}
interface RuleTestFile {
  rule_files: string[];
  tests: Array<{ name: string; alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
}
interface Target {
  expr: string;
  datasource?: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Dashboard {
  schemaVersion: number;
  templating: { list: Array<{ name: string; type: string; query: unknown; datasource?: { uid: string } }> };
  panels: Panel[];
}

const ruleFile = parse(read('deploy/monitoring/alerts.yaml')) as RuleFile;
const alerts = ruleFile.groups.flatMap((group) => group.rules);
const ruleTests = parse(read('deploy/monitoring/alerts.test.yaml')) as RuleTestFile;
const dashboard = JSON.parse(read('deploy/monitoring/dashboard.json')) as Dashboard;
const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

/** The names of the test cases that expect `alert` to fire (`firing`), or to stay quiet, at some evaluation. */
function casesOf(alert: string, firing: boolean): string[] {
  return ruleTests.tests
    .filter((test) => (test.alert_rule_test ?? []).some((check) => check.alertname === alert && (check.exp_alerts ?? []).length > 0 === firing))
    .map((test) => test.name);
}

/** Words of PromQL that are not series: the keywords, and `inf`/`nan` literals. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool', 'inf', 'nan']);

/** The metric names an expression selects: what is left once strings, matchers, ranges, label lists, dashboard variables and function calls are set aside. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)].map((match) => match[1] as string).filter((word) => !PROMQL_WORDS.has(word.toLowerCase()));
}

/** Series Prometheus makes itself, not the service. */
const FROM_PROMETHEUS = new Set(['up']);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

/**
 * The runbooks' base URL, as every alert's runbook_url reads it: from the service's paysign_runbooks_info, of the
 * instances up now, else of the last week (every instance down), else the repository's path.
 */
const RUNBOOK_BASE =
  '{{ with query "paysign_runbooks_info" }}{{ . | first | label "base_url" }}{{ else }}{{ with query "last_over_time(paysign_runbooks_info[1w])" }}{{ . | first | label "base_url" }}{{ else }}docs/runbooks.md{{ end }}{{ end }}';
/** The metric the runbook links are built on. */
const RUNBOOK_INFO = 'paysign_runbooks_info';

/** A scratch copy of alerts.yaml and its tests, with `edit` applied to the rules and only the tests `keep` selects. */
function scratchCopy(options: { edit?: (rules: RuleFile) => void; keep?: (test: RuleTestFile['tests'][number]) => boolean }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-alerts-'));
  const rules = parse(read('deploy/monitoring/alerts.yaml')) as RuleFile;
  options.edit?.(rules);
  fs.writeFileSync(path.join(dir, 'alerts.yaml'), stringify(rules));
  const tests = parse(read('deploy/monitoring/alerts.test.yaml')) as RuleTestFile;
  tests.tests = tests.tests.filter(options.keep ?? (() => true));
  fs.writeFileSync(path.join(dir, 'alerts.test.yaml'), stringify(tests));
  return dir;
}

/** promtool test rules on a scratch copy, which is removed afterwards. */
function testScratchCopy(options: Parameters<typeof scratchCopy>[0]) {
  const dir = scratchCopy(options);
  try {
    return promtool(['test', 'rules', path.join(dir, 'alerts.test.yaml')]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('deploy/monitoring/alerts.yaml', () => {
  it('gives every alert a severity, a summary, a description and a runbook_url on the runbooks’ base, ending in its section of docs/runbooks.md', () => {
    // One `## <AlertName>` per alert, whose anchor is the name in lower case.
    const sections = [...read('docs/runbooks.md').matchAll(/^## (.+)$/gm)].map((match) => anchorOf(match[1] as string));
    const missing: string[] = [];
    for (const rule of alerts) {
      if (!['critical', 'warning'].includes(rule.labels?.severity ?? '')) missing.push(`${rule.alert}: severity`);
      for (const annotation of ['summary', 'description', 'runbook_url']) if (!rule.annotations?.[annotation]) missing.push(`${rule.alert}: ${annotation}`);
      const anchor = rule.alert.toLowerCase();
      if (rule.annotations?.runbook_url !== `${RUNBOOK_BASE}#${anchor}`) missing.push(`${rule.alert}: runbook_url is not the runbooks' base followed by #${anchor}`);
      if (!sections.includes(anchor)) missing.push(`${rule.alert}: no section "## ${rule.alert}" in docs/runbooks.md`);
    }
    expect(missing).toEqual([]);
    expect(new Set(alerts.map((rule) => rule.alert)).size).toBe(alerts.length);
  });

  it('expects, in every firing case, the runbook link on the base URL its input gives, or the repository path without one', () => {
    const wrong: string[] = [];
    for (const test of ruleTests.tests as Array<RuleTestFile['tests'][number] & { input_series?: Array<{ series: string }> }>) {
      const base = (test.input_series ?? []).map(({ series }) => /^paysign_runbooks_info\{.*base_url="([^"]+)"/.exec(series)?.[1]).find((found) => found !== undefined) ?? 'docs/runbooks.md';
      for (const check of test.alert_rule_test ?? []) {
        for (const alert of (check.exp_alerts ?? []) as Array<{ exp_annotations?: Record<string, string> }>) {
          const want = `${base}#${check.alertname.toLowerCase()}`;
          if (alert.exp_annotations?.runbook_url !== want) wrong.push(`${test.name}: ${alert.exp_annotations?.runbook_url} instead of ${want}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has, for every alert, a test case where it fires and one where it stays quiet', () => {
    expect(ruleTests.rule_files).toEqual(['alerts.yaml']);
    const uncovered = alerts.flatMap((rule) => [
      ...(casesOf(rule.alert, true).length === 0 ? [`${rule.alert}: no firing case`] : []),
      ...(casesOf(rule.alert, false).length === 0 ? [`${rule.alert}: no quiet case`] : []),
    ]);
    expect(uncovered).toEqual([]);
    const tested = new Set(ruleTests.tests.flatMap((test) => (test.alert_rule_test ?? []).map((check) => check.alertname)));
    expect([...tested].filter((name) => !alerts.some((rule) => rule.alert === name))).toEqual([]);
  });
});

describe('deploy/monitoring/dashboard.json', () => {
  it('reads Prometheus through the ${datasource} variable in every panel and query', () => {
    expect(dashboard.schemaVersion).toBe(39);
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    const elsewhere = dashboard.panels
      .filter((panel) => panel.type !== 'row')
      .flatMap((panel) => [panel.datasource, ...(panel.targets ?? []).map((target) => target.datasource)].map((datasource) => ({ panel: panel.title, datasource })))
      .filter(({ datasource }) => datasource?.uid !== '${datasource}' || datasource.type !== 'prometheus');
    expect(elsewhere).toEqual([]);
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    expect(queries.length).toBeGreaterThan(15);
  });
});

describe('the metrics the alerts and the dashboard read', () => {
  let api: TestApp;
  /** Every metric the service declares, by name, with its type: prom-client writes # TYPE for each, even before its first sample. */
  let exported: Map<string, string>;
  beforeAll(async () => {
    api = await startTestApp();
    const text = await (await fetch(`${api.baseUrl}/payment/metrics`)).text();
    exported = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] as string, match[2] as string]));
  });
  afterAll(() => api.close());

  /** Whether Prometheus would hold series of `name` from the service: a metric, or a histogram's bucket, sum or count (a histogram has no series of its bare name). */
  const isExported = (name: string) => {
    const type = exported.get(name);
    if (type !== undefined) return type !== 'histogram';
    const base = name.replace(/_(bucket|sum|count)$/, '');
    return base !== name && exported.get(base) === 'histogram';
  };

  it('are all exported by the service', () => {
    const used = [
      ...alerts.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
      ...queries.map(({ panel, expr }) => ({ where: `panel ${panel}`, expr })),
      { where: 'every runbook_url', expr: RUNBOOK_INFO },
    ];
    const unexported: string[] = [];
    for (const { where, expr } of used) {
      const names = metricNames(expr);
      // A query from which no name is found means metricNames misread it, not that it reads nothing.
      if (names.length === 0) unexported.push(`${where}: no metric found in ${expr}`);
      for (const name of names) if (!FROM_PROMETHEUS.has(name) && !isExported(name)) unexported.push(`${where}: ${name}`);
    }
    expect(unexported).toEqual([]);
    expect(exported.size).toBeGreaterThan(30);
  });

  it('are each in the operations guide’s table, as is every other metric of the service', () => {
    const guide = read('docs/operations.md');
    expect([...exported.keys()].filter((name) => name.startsWith('paysign_') && !guide.includes(`| \`${name}\` |`))).toEqual([]);
  });
});

describeWithPromtool('promtool on deploy/monitoring', () => {
  it('accepts the rules and passes their unit tests', () => {
    const checked = promtool(['check', 'rules', path.join(MONITORING, 'alerts.yaml')]);
    expect(checked).toMatchObject({ status: 0, output: expect.stringContaining(`SUCCESS: ${alerts.length} rules found`) });
    const tested = promtool(['test', 'rules', path.join(MONITORING, 'alerts.test.yaml')]);
    expect(tested).toMatchObject({ status: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('fails the unit tests when an expected alert is taken out of a firing case', () => {
    const [firing] = casesOf(alerts[0]?.alert as string, true);
    const run = testScratchCopy({
      keep: (test) => {
        for (const check of test.alert_rule_test ?? []) check.exp_alerts = [];
        return test.name === firing;
      },
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain(`name: ${firing}`);
  });

  it.each(alerts.map((rule) => [rule.alert]))('fails the firing case of %s when its rule never fires, and its quiet case when it always does', (alert) => {
    const withExpr = (expr: string) => (rules: RuleFile) => {
      for (const rule of rules.groups.flatMap((group) => group.rules)) if (rule.alert === alert) rule.expr = expr;
    };
    const itsCases = (test: RuleTestFile['tests'][number]) => (test.alert_rule_test ?? []).some((check) => check.alertname === alert);
    const never = testScratchCopy({ edit: withExpr('vector(1) < 0'), keep: itsCases });
    expect(never.status).not.toBe(0);
    for (const name of casesOf(alert, true)) expect(never.output).toContain(`name: ${name}`);
    const always = testScratchCopy({ edit: withExpr('vector(1)'), keep: itsCases });
    expect(always.status).not.toBe(0);
    for (const name of casesOf(alert, false)) expect(always.output).toContain(`name: ${name}`);
  });

  it('finds every query of the dashboard valid PromQL', () => {
    // Grafana's variables, given values of the kind Grafana substitutes, so that promtool parses each query as a rule.
    const substituted = queries.map(({ expr }) => expr.replaceAll('$__rate_interval', '1m').replaceAll('$__range', '1h').replaceAll('$job', 'paysign').replaceAll('$instance', '.*'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paysign-dashboard-'));
    try {
      const file = path.join(dir, 'queries.yaml');
      fs.writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules: substituted.map((expr, i) => ({ record: `dashboard:query_${i}`, expr })) }] }));
      expect(promtool(['check', 'rules', file])).toMatchObject({ status: 0, output: expect.stringContaining(`SUCCESS: ${queries.length} rules found`) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
