// Finds the changes between two versions of the OpenAPI contract that would
// break a merchant already integrated, and says each in words, naming the
// operation or webhook, the schema path and the field. It reads `paths` and
// `webhooks`, and every schema reachable from them (schema-changes.ts says
// which changes break in which direction). Additive changes pass: new
// operations and webhooks, new optional request fields, new response fields,
// new enum values in responses (new error codes). A state machine's new
// transition (`x-transitions`) out of a state merchants already know is
// breaking: code written for the old moves meets one it never handled.
import { ContractResolver, type OpenApiDocument, type Operation, type Parameter, type PathItem } from './contract-resolver';
import { compareSchemas, type Direction } from './schema-changes';

export type { OpenApiDocument } from './contract-resolver';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const JSON_MEDIA = 'application/json';

/** Which way an operation's parts travel: a merchant calls a path, and receives a webhook. */
interface Side {
  /** The request's parameters and body. */
  sent: Direction;
  /** The responses' bodies. */
  answered: Direction;
}
const PATH_OPERATION: Side = { sent: 'request', answered: 'response' };
const WEBHOOK: Side = { sent: 'response', answered: 'request' };

interface Context {
  old: ContractResolver;
  now: ContractResolver;
  found: string[];
}

/** Every breaking change from `before` to `after`, in words; empty when none. */
export function breakingChanges(before: OpenApiDocument, after: OpenApiDocument): string[] {
  const context: Context = { old: new ContractResolver(before), now: new ContractResolver(after), found: [] };
  for (const [path, oldItem] of Object.entries(before.paths ?? {})) {
    compareItem(context, oldItem, after.paths?.[path], { side: PATH_OPERATION, name: (method) => `${method.toUpperCase()} ${path}`, removed: 'the operation was removed.' });
  }
  for (const [webhook, oldItem] of Object.entries(before.webhooks ?? {})) {
    compareItem(context, oldItem, after.webhooks?.[webhook], { side: WEBHOOK, name: (method) => `webhook ${webhook}${method === 'post' ? '' : ` (${method.toUpperCase()})`}`, removed: 'the webhook was removed; merchants no longer receive it.' });
  }
  compareTransitions(before, after, context.found);
  return context.found;
}

function compareItem(context: Context, oldItem: PathItem, newItem: PathItem | undefined, item: { side: Side; name: (method: string) => string; removed: string }): void {
  for (const method of METHODS) {
    const oldOperation = oldItem[method];
    if (!oldOperation) continue;
    const name = item.name(method);
    const newOperation = newItem?.[method];
    if (!newOperation) {
      context.found.push(`${name}: ${item.removed}`);
      continue;
    }
    const parameters = (pathItem: PathItem | undefined, operation: Operation) => [...(pathItem?.parameters ?? []), ...(operation.parameters ?? [])];
    compareParameters(context, name, item.side.sent, parameters(oldItem, oldOperation), parameters(newItem, newOperation));
    compareRequestBody(context, name, item.side.sent, oldOperation, newOperation);
    compareResponses(context, name, item.side.answered, oldOperation, newOperation);
  }
}

function compareParameters(context: Context, name: string, direction: Direction, oldList: Parameter[], newList: Parameter[]): void {
  const { old, now, found } = context;
  const key = (p: Parameter) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const oldParameters = new Map(oldList.map((p) => old.deref(p)!).map((p) => [key(p), p]));
  const newParameters = new Map(newList.map((p) => now.deref(p)!).map((p) => [key(p), p]));
  for (const [id, parameter] of newParameters) {
    const before = oldParameters.get(id);
    const where = `${name} ${parameter.in} parameter ${parameter.name}`;
    if (direction === 'request') {
      if (!before) {
        if (parameter.required) found.push(`${where}: is new and required.`);
        continue;
      }
      if (parameter.required && !before.required) found.push(`${where}: became required.`);
    }
    if (before) compareSchemas({ direction, subject: where, old, now, found }, before.schema, parameter.schema);
  }
  if (direction === 'response') {
    for (const [id, parameter] of oldParameters) {
      const where = `${name} ${parameter.in} parameter ${parameter.name}`;
      const next = newParameters.get(id);
      if (!next) found.push(`${where}: is no longer sent.`);
      else if (parameter.required && !next.required) found.push(`${where}: is no longer always sent.`);
    }
  }
}

function compareRequestBody(context: Context, name: string, direction: Direction, oldOperation: Operation, newOperation: Operation): void {
  const { old, now, found } = context;
  const before = old.deref(oldOperation.requestBody);
  const after = now.deref(newOperation.requestBody);
  const part = direction === 'request' ? 'request body' : 'payload';
  if (direction === 'response' && before && !after) {
    found.push(`${name} ${part}: is no longer sent.`);
    return;
  }
  if (!after) return;
  if (!before) {
    if (direction === 'request' && after.required) found.push(`${name} ${part}: is new and required.`);
    return;
  }
  if (direction === 'request' && after.required && !before.required) found.push(`${name} ${part}: became required.`);
  compareSchemas({ direction, subject: `${name} ${part}`, old, now, found }, before.content?.[JSON_MEDIA]?.schema, after.content?.[JSON_MEDIA]?.schema);
}

function compareResponses(context: Context, name: string, direction: Direction, oldOperation: Operation, newOperation: Operation): void {
  const { old, now, found } = context;
  for (const [status, oldResponse] of Object.entries(oldOperation.responses ?? {})) {
    const newResponse = now.deref(newOperation.responses?.[status]);
    if (!newResponse) {
      found.push(`${name}: status ${status} is no longer documented.`);
      continue;
    }
    const before = old.deref(oldResponse)?.content?.[JSON_MEDIA]?.schema;
    const after = newResponse.content?.[JSON_MEDIA]?.schema;
    if (before && after) compareSchemas({ direction, subject: `${name} ${status} ${direction === 'response' ? 'response' : 'answer'}`, old, now, found }, before, after);
  }
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
