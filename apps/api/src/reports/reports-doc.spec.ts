// A report's header row is stated in three places merchants read or code
// against: the service (REPORTS), the contract's example, and docs/reports.md.
// They must agree, column for column, and so must the filters.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContractValidator } from '@paysign/contracts/testing';
import { headerOf } from './report-csv';
import { REPORTS } from './reports';

const contract = new ContractValidator();
const DOC = fs.readFileSync(path.join(__dirname, '../../../../docs/reports.md'), 'utf8');
type Operation = { parameters: Array<{ name?: string; $ref?: string }>; responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: string }> }> }> };
const operationOf = (name: string) => (contract.document.paths[`/payment/api/reports/${name}.csv`] as unknown as { get?: Operation } | undefined)?.get;

describe.each([...REPORTS.keys()])('the %s report', (name) => {
  const report = REPORTS.get(name);
  if (!report) throw new Error(name);
  const header = headerOf(report).join(',');

  it('has an operation in the contract whose examples start with its header row', () => {
    const examples = Object.values(operationOf(name)?.responses['200']?.content?.['text/csv']?.examples ?? {});
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example.value.split('\n')[0]).toBe(header);
  });

  it("takes from, to, after and exactly the contract's filters", () => {
    const parameters = (operationOf(name)?.parameters ?? []).map((p) => p.name ?? { '#/components/parameters/ReportFrom': 'from', '#/components/parameters/ReportTo': 'to', '#/components/parameters/ReportAfter': 'after' }[p.$ref ?? '']);
    expect(parameters).toEqual(['from', 'to', ...report.filters.map((filter) => filter.parameter), 'after']);
  });

  it('is documented in docs/reports.md with its header row, each column and each filter', () => {
    expect(DOC).toContain(`## \`${name}.csv\``);
    const section = DOC.slice(DOC.indexOf(`## \`${name}.csv\``)).split('\n## ')[0] ?? '';
    expect(section).toContain(header);
    for (const column of headerOf(report)) expect(section).toContain(`| \`${column}\` |`);
    for (const filter of report.filters) expect(section).toContain(`\`${filter.parameter}\``);
  });
});
