import * as fs from 'node:fs';
import { CONTRACT_PATH } from '@paysign/contracts/testing';
import { parse } from 'yaml';

/** A JSON schema of the contract with every $ref replaced by what it names. */
export interface Schema {
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
  properties?: Record<string, Schema>;
  required?: string[];
  maxProperties?: number;
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
  /** The contract's examples of the parameter. */
  examples: unknown[];
}

/** One operation of the contract, as the fuzz suite drives it. */
export interface ContractOperation {
  operationId: string;
  /** Upper case, as sent. */
  method: string;
  /** The path template, such as /payment/api/payins/{reference}. */
  template: string;
  /** Whether the operation needs the signing headers (its security is not empty). */
  signed: boolean;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  requestBody?: { mediaType: string; schema: Schema; examples: Array<Record<string, unknown>> };
}

interface RawOperation {
  operationId: string;
  security?: unknown[];
  parameters?: RawParameter[];
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, { value?: unknown }> }> };
}
interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  schema: unknown;
  example?: unknown;
}
interface RawDocument {
  security?: unknown[];
  paths: Record<string, Record<string, unknown> & { parameters?: RawParameter[] }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of openapi/payment-api.yaml, read when called, so that a route added to the contract is fuzzed without editing the suite. */
export function contractOperations(contractPath: string = CONTRACT_PATH): ContractOperation[] {
  const document = parse(fs.readFileSync(contractPath, 'utf8')) as RawDocument;
  const resolve = (node: unknown, depth = 0): unknown => {
    if (depth > 32) throw new Error('the contract nests $refs more than 32 deep');
    if (Array.isArray(node)) return node.map((item) => resolve(item, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') return resolve(pointer(document, ref), depth + 1);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, depth + 1)]));
  };
  const operations: ContractOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method] as RawOperation | undefined;
      if (!raw) continue;
      const parameters = [...(item.parameters ?? []), ...(raw.parameters ?? [])].map((p) => resolve(p) as RawParameter);
      const of = (place: string): Parameter[] =>
        parameters.filter((p) => p.in === place).map((p) => ({ name: p.name, required: p.required === true, schema: p.schema as Schema, examples: p.example === undefined ? [] : [p.example] }));
      const [mediaType, media] = Object.entries(raw.requestBody?.content ?? {})[0] ?? [];
      const security = (raw.security ?? document.security ?? []) as Array<Record<string, unknown>>;
      operations.push({
        operationId: raw.operationId,
        method: method.toUpperCase(),
        template,
        signed: security.some((requirement) => Object.keys(requirement).length > 0),
        pathParameters: of('path'),
        queryParameters: of('query'),
        ...(mediaType && media ? { requestBody: { mediaType, schema: resolve(media.schema) as Schema, examples: examplesOf(resolve(media.examples ?? {})) } } : {}),
      });
    }
  }
  return operations;
}

function examplesOf(examples: unknown): Array<Record<string, unknown>> {
  return Object.values(examples as Record<string, { value?: unknown }>)
    .map((example) => example.value)
    .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value));
}

function pointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are followed, not ${ref}`);
  let node = document;
  for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`${ref} names nothing in the contract`);
  return node;
}

/** The concrete path of a template, with each parameter replaced by its text as sent. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${template}`);
    return value;
  });
}
