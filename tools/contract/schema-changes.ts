// Compares one schema of two versions of the contract, in the direction the
// value travels, and descends into every schema reachable from it: `$ref`s,
// `allOf` (merged), `oneOf`/`anyOf` branches, array items and map values.
//
// `request`: what a merchant sends (a request body or parameter, the answer to
// a webhook). Everything the merchant could send before must still be accepted.
// `response`: what a merchant receives (a response, a webhook's payload and
// headers). Everything the merchant could rely on before must still hold.
//
// Enum values in what a merchant receives are open: a removed value is never
// sent again, which code written for it survives; an added value (a new error
// code, a new gateway) is additive, and docs/errors.md asks merchants to give
// every switch over such a value a default branch. The one
// closed set is a state machine's: a new status reachable from a known one is
// reported by the `x-transitions` rule in breaking-changes.ts.
import type { ContractResolver, ResolvedSchema, Schema } from './contract-resolver';

export type Direction = 'request' | 'response';

export interface SchemaComparison {
  direction: Direction;
  /** Who is concerned: the operation or webhook and the part of it, for example `webhook payin.successful payload`. */
  subject: string;
  old: ContractResolver;
  now: ContractResolver;
  found: string[];
}

/** Where a comparison stands: the path from the root schema, and the component that holds the current schema. */
interface Place {
  path: string;
  component?: string;
  /** Pairs of components already being compared on this path: a recursive schema is compared once. */
  visiting: ReadonlySet<string>;
}

const MAX_DEPTH = 64;

/** Compares the schema at the root of a request, response, payload or parameter. */
export function compareSchemas(comparison: SchemaComparison, oldNode: Schema | undefined, newNode: Schema | undefined): void {
  compare(comparison, oldNode, newNode, { path: '', visiting: new Set() }, 0);
}

function compare(c: SchemaComparison, oldNode: Schema | undefined, newNode: Schema | undefined, at: Place, depth: number): void {
  const before = c.old.schema(oldNode);
  const after = c.now.schema(newNode);
  if (!before || !after || depth > MAX_DEPTH) return;
  const pair = `${before.name ?? ''}>${after.name ?? ''}`;
  if ((before.name || after.name) && at.visiting.has(pair)) return;
  const name = after.name ?? before.name;
  const here: Place = {
    path: at.path === '' ? (name ?? '(root)') : at.path,
    component: name ?? at.component,
    visiting: before.name || after.name ? new Set([...at.visiting, pair]) : at.visiting,
  };
  if (branchesOf(before.schema) || branchesOf(after.schema)) return compareBranches(c, before, after, here, depth);
  compareValue(c, before.schema, after.schema, here);
  compareObject(c, before.schema, after.schema, here, depth);
  if (before.schema.items && after.schema.items) compare(c, before.schema.items, after.schema.items, { ...here, path: `${here.path}[]` }, depth + 1);
  if (typeof before.schema.additionalProperties === 'object' && typeof after.schema.additionalProperties === 'object') {
    compare(c, before.schema.additionalProperties, after.schema.additionalProperties, { ...here, path: `${here.path}{}` }, depth + 1);
  }
}

function report(c: SchemaComparison, at: Place, change: string): void {
  c.found.push(`${c.subject}: ${at.path}: ${change}`);
}

/** `field x of Component`, or `field x` when the schema is inline. */
function fieldName(field: string, at: Place): string {
  return at.component ? `field ${field} of ${at.component}` : `field ${field}`;
}

/** Type, enum, const, pattern and bounds of one value. */
function compareValue(c: SchemaComparison, before: Schema, after: Schema, at: Place): void {
  if (c.direction === 'request') {
    if (!typesInclude(types(after), types(before))) report(c, at, `type narrowed from ${typeText(before)} to ${typeText(after)}.`);
    if (before.enum && after.enum) {
      const removed = before.enum.filter((v) => !after.enum!.includes(v));
      if (removed.length) report(c, at, `enum narrowed; ${removed.map((v) => JSON.stringify(v)).join(', ')} no longer accepted.`);
    } else if (!before.enum && after.enum) {
      report(c, at, `now restricted to the enum ${JSON.stringify(after.enum)}.`);
    }
    if (after.const !== undefined && JSON.stringify(after.const) !== JSON.stringify(before.const)) report(c, at, `now restricted to the constant ${JSON.stringify(after.const)}.`);
    if (after.pattern !== undefined && after.pattern !== before.pattern) {
      report(c, at, `pattern changed from ${before.pattern === undefined ? 'none' : `/${before.pattern}/`} to /${after.pattern}/; values the old pattern accepted may be refused.`);
    }
    for (const [bound, tighter] of BOUNDS) {
      const a = after[bound];
      const b = before[bound];
      if (a !== undefined && (b === undefined || tighter(a, b))) report(c, at, `${bound} tightened from ${b ?? 'none'} to ${a}.`);
    }
    return;
  }
  if (!typesInclude(types(before), types(after))) report(c, at, `type widened from ${typeText(before)} to ${typeText(after)}.`);
  if (before.const !== undefined && JSON.stringify(after.const) !== JSON.stringify(before.const)) report(c, at, `constant ${JSON.stringify(before.const)} changed to ${after.const === undefined ? 'any value' : JSON.stringify(after.const)}.`);
}

const BOUNDS = [
  ['maxLength', (a: number, b: number) => a < b],
  ['maximum', (a: number, b: number) => a < b],
  ['exclusiveMaximum', (a: number, b: number) => a < b],
  ['maxItems', (a: number, b: number) => a < b],
  ['minLength', (a: number, b: number) => a > b],
  ['minimum', (a: number, b: number) => a > b],
  ['exclusiveMinimum', (a: number, b: number) => a > b],
  ['minItems', (a: number, b: number) => a > b],
] as const;

/** Required and present fields, then each field's own schema. */
function compareObject(c: SchemaComparison, before: Schema, after: Schema, at: Place, depth: number): void {
  const oldRequired = new Set(before.required ?? []);
  const newRequired = new Set(after.required ?? []);
  if (c.direction === 'request') {
    for (const field of newRequired) {
      if (oldRequired.has(field)) continue;
      report(c, at, before.properties?.[field] ? `${fieldName(field, at)} became required.` : `${fieldName(field, at)} is new and required.`);
    }
  }
  for (const [field, schema] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[field];
    if (!next) {
      if (c.direction === 'response') report(c, at, `${fieldName(field, at)} was removed or renamed.`);
      else if (after.additionalProperties === false) report(c, at, `${fieldName(field, at)} was removed; merchants that send it are refused.`);
      continue;
    }
    if (c.direction === 'response' && oldRequired.has(field) && !newRequired.has(field)) report(c, at, `${fieldName(field, at)} is no longer always present.`);
    compare(c, schema, next, { ...at, path: `${at.path}.${field}` }, depth + 1);
  }
}

function branchesOf(schema: Schema): Schema[] | undefined {
  if (!schema.oneOf && !schema.anyOf) return undefined;
  return [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
}

/**
 * `oneOf`/`anyOf`: each old branch is matched to a new one by the component it
 * names, else by the constant or single enum value one of its fields holds (a
 * discriminator such as `type`), else by its position. A schema without
 * branches is one branch.
 */
function compareBranches(c: SchemaComparison, before: ResolvedSchema, after: ResolvedSchema, at: Place, depth: number): void {
  const oldBranches = (branchesOf(before.schema) ?? [before.schema]).map((node) => ({ node, key: branchKey(c.old, node) }));
  const newBranches = (branchesOf(after.schema) ?? [after.schema]).map((node) => ({ node, key: branchKey(c.now, node) }));
  const keyword = after.schema.anyOf && !after.schema.oneOf ? 'anyOf' : 'oneOf';
  const unmatched = new Set(newBranches.map((_, index) => index));
  const oldTypes: string[] = [];
  for (const [index, branch] of oldBranches.entries()) {
    const byKey = branch.key === undefined ? -1 : newBranches.findIndex((candidate, i) => unmatched.has(i) && candidate.key === branch.key);
    const match = byKey >= 0 ? byKey : branch.key === undefined && unmatched.has(index) && newBranches[index]?.key === undefined ? index : -1;
    oldTypes.push(...(types(c.old.schema(branch.node)?.schema ?? {}) ?? ['any']));
    const label = branch.key ?? String(index);
    if (match < 0) {
      if (c.direction === 'request') report(c, at, `${keyword} branch ${label} was removed; merchants that send it are refused.`);
      continue;
    }
    unmatched.delete(match);
    compare(c, branch.node, newBranches[match]!.node, { ...at, path: `${at.path}.${keyword}[${label}]` }, depth + 1);
  }
  if (c.direction === 'response') {
    for (const index of unmatched) {
      const added = c.now.schema(newBranches[index]!.node)?.schema ?? {};
      const addedTypes = types(added);
      if (addedTypes && !oldTypes.includes('any') && addedTypes.some((t) => !oldTypes.includes(t) && !(t === 'integer' && oldTypes.includes('number')))) {
        report(c, at, `${keyword} branch ${newBranches[index]!.key ?? index} adds the type ${typeText(added)}, which was never sent before.`);
      }
    }
  }
}

/** What identifies a branch across versions: its component, or the constant of its discriminating field. */
function branchKey(resolver: ContractResolver, node: Schema): string | undefined {
  const resolved = resolver.schema(node);
  if (!resolved) return undefined;
  if (resolved.name) return resolved.name;
  for (const [field, property] of Object.entries(resolved.schema.properties ?? {})) {
    const value = resolver.schema(property)?.schema;
    const constant = value?.const ?? (value?.enum?.length === 1 ? value.enum[0] : undefined);
    if (constant !== undefined) return `${field}=${JSON.stringify(constant)}`;
  }
  if (resolved.schema.type === 'null') return 'null';
  return undefined;
}

function types(schema: Schema): string[] | undefined {
  if (schema.type === undefined) return schema.const === null ? ['null'] : undefined;
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  return list.includes('number') ? [...list, 'integer'] : list;
}

/** Whether every type `inner` allows is one `outer` allows (`undefined`: any type). */
function typesInclude(outer: string[] | undefined, inner: string[] | undefined): boolean {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  return inner.every((t) => outer.includes(t));
}

function typeText(schema: Schema): string {
  return schema.type === undefined ? 'any' : JSON.stringify(schema.type);
}
