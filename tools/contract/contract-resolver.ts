// Reads one version of the contract for the breaking-change check: follows
// local `$ref`s, remembering the component each one named, and merges `allOf`
// parts into one schema, so that the comparison sees what a value must be.

export type Schema = {
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
  minItems?: number;
  maxItems?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }>; $ref?: string };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }>; $ref?: string }>;
}

export type PathItem = Record<string, Operation> & { parameters?: Parameter[] };

export interface OpenApiDocument {
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown>>;
}

/** A schema with its refs followed and its `allOf` merged; `name` is the last component a `$ref` named on the way. */
export interface ResolvedSchema {
  schema: Schema;
  name?: string;
}

const MAX_REF_HOPS = 32;

export class ContractResolver {
  constructor(readonly document: OpenApiDocument) {}

  /** Follows local `$ref`s to the object they point at. */
  deref<T extends { $ref?: string }>(node: T | undefined): T | undefined {
    return this.follow(node).node;
  }

  /** The schema `node` stands for, refs followed and `allOf` parts merged. */
  schema(node: Schema | undefined): ResolvedSchema | undefined {
    const { node: schema, name } = this.follow(node);
    if (!schema) return undefined;
    return { schema: this.mergeAllOf(schema, 0), name };
  }

  private follow<T extends { $ref?: string }>(node: T | undefined): { node: T | undefined; name?: string } {
    let current = node;
    let name: string | undefined;
    for (let hops = 0; current?.$ref !== undefined && hops < MAX_REF_HOPS; hops++) {
      const parts = current.$ref.replace(/^#\//, '').split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (parts[0] === 'components' && parts[1] === 'schemas') name = parts[2];
      let target: unknown = this.document;
      for (const part of parts) target = (target as Record<string, unknown> | undefined)?.[part];
      current = target as T | undefined;
    }
    return { node: current, name };
  }

  /**
   * One schema with every `allOf` part's constraints: properties and required
   * fields add up; a property two parts define must satisfy both; two enums
   * leave the values both allow.
   */
  private mergeAllOf(schema: Schema, depth: number): Schema {
    if (!schema.allOf || depth > MAX_REF_HOPS) return schema;
    const { allOf, ...own } = schema;
    let merged: Schema = { ...own };
    for (const part of allOf) {
      const resolved = this.follow(part).node;
      if (resolved) merged = combine(merged, this.mergeAllOf(resolved, depth + 1));
    }
    return merged;
  }
}

function combine(a: Schema, b: Schema): Schema {
  const properties: Record<string, Schema> = { ...a.properties };
  for (const [key, value] of Object.entries(b.properties ?? {})) {
    const existing = properties[key];
    properties[key] = existing ? { allOf: [existing, value] } : value;
  }
  const merged: Schema = { ...a, ...b, properties, required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])] };
  if (a.enum && b.enum) merged.enum = a.enum.filter((value) => b.enum!.includes(value));
  if (a.additionalProperties === false || b.additionalProperties === false) merged.additionalProperties = false;
  return merged;
}
