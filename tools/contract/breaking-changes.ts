// Finds the changes between two versions of the OpenAPI contract that would
// break a merchant already integrated, and says each in words. Additive
// changes pass: new operations, new optional request fields, new response
// fields, new enum values in responses (new error codes). A state machine's
// new transition (`x-transitions`) out of a state merchants already know is
// breaking: code written for the old moves meets one it never handled.

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema; $ref?: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }>; $ref?: string };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }>; $ref?: string }>;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every breaking change from `before` to `after`, in words; empty when none. */
export function breakingChanges(before: OpenApiDocument, after: OpenApiDocument): string[] {
  const found: string[] = [];
  const old = new Resolver(before);
  const now = new Resolver(after);
  for (const [path, oldItem] of Object.entries(before.paths ?? {})) {
    for (const method of METHODS) {
      const oldOperation = oldItem[method];
      if (!oldOperation) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const newOperation = after.paths?.[path]?.[method];
      if (!newOperation) {
        found.push(`${name}: the operation was removed.`);
        continue;
      }
      compareParameters(name, old, oldOperation, now, newOperation, found);
      compareRequestBody(name, old, oldOperation, now, newOperation, found);
      compareResponses(name, old, oldOperation, now, newOperation, found);
    }
  }
  compareTransitions(before, after, found);
  return found;
}

/** A transition added to a state that existed before: a merchant's code sees a move it was never written for. */
function compareTransitions(before: OpenApiDocument, after: OpenApiDocument, found: string[]): void {
  const schemasOf = (document: OpenApiDocument) => (document.components?.schemas ?? {}) as Record<string, { 'x-transitions'?: Record<string, string[]> }>;
  const afterSchemas = schemasOf(after);
  for (const [name, schema] of Object.entries(schemasOf(before))) {
    const oldMoves = schema['x-transitions'];
    const newMoves = afterSchemas[name]?.['x-transitions'];
    if (!oldMoves || !newMoves) continue;
    for (const [from, tos] of Object.entries(oldMoves)) {
      for (const to of (newMoves[from] ?? []).filter((target) => !tos.includes(target))) {
        found.push(`${name}: ${from} may now move to ${to} (x-transitions), a move integrated merchants have not handled.`);
      }
    }
  }
}

class Resolver {
  constructor(private readonly document: OpenApiDocument) {}

  /** Follows local `$ref`s to the object they point at. */
  deref<T extends { $ref?: string }>(node: T | undefined): T | undefined {
    let current = node;
    for (let hops = 0; current?.$ref !== undefined && hops < 32; hops++) {
      let target: unknown = this.document;
      for (const part of current.$ref.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      current = target as T | undefined;
    }
    return current;
  }

  /** A schema with its refs followed and its allOf parts merged. */
  schema(node: Schema | undefined): Schema | undefined {
    const schema = this.deref(node);
    if (!schema?.allOf) return schema;
    const merged: Schema = { ...schema, allOf: undefined, properties: { ...schema.properties }, required: [...(schema.required ?? [])] };
    for (const part of schema.allOf.map((p) => this.schema(p))) {
      if (!part) continue;
      Object.assign(merged, { ...part, properties: merged.properties, required: merged.required });
      for (const [key, value] of Object.entries(part.properties ?? {})) merged.properties![key] = { ...this.schema(merged.properties![key]), ...this.schema(value) };
      merged.required!.push(...(part.required ?? []));
    }
    return merged;
  }
}

function compareParameters(name: string, old: Resolver, oldOperation: Operation, now: Resolver, newOperation: Operation, found: string[]): void {
  const oldParameters = new Map((oldOperation.parameters ?? []).map((p) => old.deref(p)!).map((p) => [`${p.in}:${p.name}`, p]));
  for (const parameter of (newOperation.parameters ?? []).map((p) => now.deref(p)!)) {
    const before = oldParameters.get(`${parameter.in}:${parameter.name}`);
    const where = `${name}: ${parameter.in} parameter ${parameter.name}`;
    if (!before) {
      if (parameter.required) found.push(`${where} is new and required.`);
      continue;
    }
    if (parameter.required && !before.required) found.push(`${where} became required.`);
    compareRequestSchema(where, old, before.schema, now, parameter.schema, found);
  }
}

function compareRequestBody(name: string, old: Resolver, oldOperation: Operation, now: Resolver, newOperation: Operation, found: string[]): void {
  const before = old.deref(oldOperation.requestBody);
  const after = now.deref(newOperation.requestBody);
  if (!after) return;
  if (!before) {
    if (after.required) found.push(`${name}: a request body is new and required.`);
    return;
  }
  if (after.required && !before.required) found.push(`${name}: the request body became required.`);
  compareRequestSchema(`${name}: request`, old, before.content?.['application/json']?.schema, now, after.content?.['application/json']?.schema, found);
}

function compareResponses(name: string, old: Resolver, oldOperation: Operation, now: Resolver, newOperation: Operation, found: string[]): void {
  for (const [status, oldResponse] of Object.entries(oldOperation.responses ?? {})) {
    const newResponse = now.deref(newOperation.responses?.[status]);
    if (!newResponse) {
      found.push(`${name}: status ${status} is no longer documented.`);
      continue;
    }
    const before = old.deref(oldResponse)?.content?.['application/json']?.schema;
    const after = newResponse.content?.['application/json']?.schema;
    if (before && after) compareResponseSchema(`${name} ${status}: response`, old, before, now, after, found);
  }
}

/** What a client sends: anything it could send before must still be accepted. */
function compareRequestSchema(where: string, old: Resolver, oldNode: Schema | undefined, now: Resolver, newNode: Schema | undefined, found: string[]): void {
  const before = old.schema(oldNode);
  const after = now.schema(newNode);
  if (!before || !after) return;
  if (!typesInclude(after, before)) found.push(`${where}: type narrowed from ${typeText(before)} to ${typeText(after)}.`);
  if (before.enum && after.enum) {
    const removed = before.enum.filter((v) => !after.enum!.includes(v));
    if (removed.length) found.push(`${where}: enum narrowed; ${removed.map((v) => JSON.stringify(v)).join(', ')} no longer accepted.`);
  } else if (!before.enum && after.enum) {
    found.push(`${where}: now restricted to the enum ${JSON.stringify(after.enum)}.`);
  }
  if (after.pattern !== undefined && after.pattern !== before.pattern) {
    found.push(`${where}: pattern changed from ${before.pattern === undefined ? 'none' : `/${before.pattern}/`} to /${after.pattern}/; values the old pattern accepted may be refused.`);
  }
  for (const [bound, tighter] of [
    ['maxLength', (a: number, b: number) => a < b],
    ['maximum', (a: number, b: number) => a < b],
    ['exclusiveMaximum', (a: number, b: number) => a < b],
    ['minLength', (a: number, b: number) => a > b],
    ['minimum', (a: number, b: number) => a > b],
    ['exclusiveMinimum', (a: number, b: number) => a > b],
  ] as const) {
    const a = after[bound];
    const b = before[bound];
    if (a !== undefined && (b === undefined || tighter(a, b))) found.push(`${where}: ${bound} tightened from ${b ?? 'none'} to ${a}.`);
  }
  const oldRequired = new Set(before.required ?? []);
  for (const field of after.required ?? []) {
    if (oldRequired.has(field)) continue;
    found.push(before.properties?.[field] ? `${where} field ${field} became required.` : `${where} field ${field} is new and required.`);
  }
  for (const [field, schema] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[field];
    if (!next) {
      if (after.additionalProperties === false) found.push(`${where} field ${field} was removed; clients that send it are refused.`);
      continue;
    }
    compareRequestSchema(`${where} field ${field}`, old, schema, now, next, found);
  }
}

/** What a client receives: everything it could rely on before must still hold. */
function compareResponseSchema(where: string, old: Resolver, oldNode: Schema | undefined, now: Resolver, newNode: Schema | undefined, found: string[]): void {
  const before = old.schema(oldNode);
  const after = now.schema(newNode);
  if (!before || !after) return;
  if (!typesInclude(before, after)) found.push(`${where}: type widened from ${typeText(before)} to ${typeText(after)}.`);
  if (before.enum && after.enum) {
    const removed = before.enum.filter((v) => !after.enum!.includes(v));
    if (removed.length) found.push(`${where}: enum value${removed.length > 1 ? 's' : ''} ${removed.map((v) => JSON.stringify(v)).join(', ')} removed.`);
  }
  if (before.const !== undefined && after.const !== before.const) found.push(`${where}: constant ${JSON.stringify(before.const)} changed to ${JSON.stringify(after.const)}.`);
  const newRequired = new Set(after.required ?? []);
  for (const [field, schema] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[field];
    if (!next) {
      found.push(`${where} field ${field} was removed or renamed.`);
      continue;
    }
    if ((before.required ?? []).includes(field) && !newRequired.has(field)) found.push(`${where} field ${field} is no longer always present.`);
    compareResponseSchema(`${where} field ${field}`, old, schema, now, next, found);
  }
  if (before.items && after.items) compareResponseSchema(`${where} items`, old, before.items, now, after.items, found);
  if (typeof before.additionalProperties === 'object' && typeof after.additionalProperties === 'object') {
    compareResponseSchema(`${where} values`, old, before.additionalProperties, now, after.additionalProperties, found);
  }
}

function types(schema: Schema): string[] | undefined {
  if (schema.type === undefined) return undefined;
  const list = Array.isArray(schema.type) ? schema.type : [schema.type];
  return list.includes('number') ? [...list, 'integer'] : list;
}

/** Whether every type `inner` allows is one `outer` allows. */
function typesInclude(outer: Schema, inner: Schema): boolean {
  const a = types(outer);
  const b = types(inner);
  if (a === undefined) return true;
  if (b === undefined) return false;
  return b.every((t) => a.includes(t));
}

function typeText(schema: Schema): string {
  return schema.type === undefined ? 'any' : JSON.stringify(schema.type);
}
