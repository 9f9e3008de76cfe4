// Validates real HTTP responses against openapi/payment-api.yaml, so tests prove
// the service answers exactly what the contract promises.
import * as fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { CONTRACT_PATH } from './contract-path';
import { describeViolation } from './contract-violation';

const CONTRACT_ID = 'https://contract.local/payment-api.json';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  webhooks?: Record<string, Record<string, { requestBody?: ResponseObject }>>;
  components: { responses: Record<string, unknown> };
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> }>;
}

export interface ResponseToValidate {
  method: string;
  /** The concrete request path, for example `/payment/api/payins/order-1`. Query strings are ignored. */
  path: string;
  status: number;
  body: unknown;
}

export interface WebhookToValidate {
  /** The webhook's name in the contract's `webhooks`, for example `payin.successful`. */
  name: string;
  /** The payload as the receiver parsed it. */
  body: unknown;
}

export class ContractValidator {
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv2020;

  constructor(contractPath: string = CONTRACT_PATH) {
    this.document = parse(fs.readFileSync(contractPath, 'utf8')) as OpenApiDocument;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...this.document, $id: CONTRACT_ID });
  }

  /** Returns the contract violations of one response; an empty array means it conforms. */
  validateResponse({ method, path, status, body }: ResponseToValidate): string[] {
    const template = this.matchPathTemplate(path.split('?')[0] ?? path);
    if (!template) return [`${path} is not a path of the contract`];
    const operation = this.document.paths[template]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${template} is not an operation of the contract`];
    const pointer = this.responsePointer(template, method, String(status));
    if (!pointer) return [`${method} ${template} does not document status ${status}`];
    const documented = this.resolve(pointer).content;
    // Pages (the hosted checkout) and redirects: the contract documents the status and the media type, not a schema to check.
    if (!documented?.['application/json']) {
      if (documented?.['text/html']) return typeof body === 'string' ? [] : [`${method} ${template} ${status} must be an HTML page`];
      if (documented?.['text/csv']) return this.csvViolations(`${method} ${template} ${status}`, documented['text/csv'], body);
      if (!documented) return body === '' || body === undefined ? [] : [`${method} ${template} ${status} must have no body`];
    }
    const schemaPointer = `${pointer}/content/application~1json/schema`;
    if (!this.ajv.getSchema(`${CONTRACT_ID}#${schemaPointer}`)) return [`${method} ${template} ${status} has no application/json schema`];
    return this.validateAt(schemaPointer, body);
  }

  /** A CSV answer: text whose header row is the one the contract's examples start with (reports; docs/reports.md). */
  private csvViolations(label: string, media: NonNullable<ResponseObject['content']>[string], body: unknown): string[] {
    if (typeof body !== 'string') return [`${label} must be CSV text`];
    const headers = new Set(Object.values(media.examples ?? {}).map((example) => String(example.value ?? '').split(/\r?\n/)[0]));
    const header = body.split('\r\n')[0] ?? '';
    if (headers.size > 0 && !headers.has(header)) return [`${label} starts with the header row ${JSON.stringify(header)}, not the documented ${[...headers].map((h) => JSON.stringify(h)).join(' or ')}`];
    return body === '' || body.endsWith('\r\n') ? [] : [`${label} must end each record with CRLF`];
  }

  /** Returns the contract violations of one webhook payload, checked against its `webhooks` entry; empty when it conforms. */
  validateWebhook({ name, body }: WebhookToValidate): string[] {
    const media = this.document.webhooks?.[name]?.post?.requestBody?.content?.['application/json'];
    if (!media?.schema) return [`${name} is not a webhook of the contract`];
    return this.validateAt(`/webhooks/${escapePointer(name)}/post/requestBody/content/application~1json/schema`, body);
  }

  /** The names of the contract's webhooks. */
  webhookNames(): string[] {
    return Object.keys(this.document.webhooks ?? {});
  }

  /** JSON pointers of every schema paired with the examples the contract gives for it. */
  examples(): Array<{ name: string; schemaPointer: string; value: unknown }> {
    const found: Array<{ name: string; schemaPointer: string; value: unknown }> = [];
    for (const [template, operations] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!HTTP_METHODS.includes(method)) continue;
        const requestBody = (operation as { requestBody?: ResponseObject }).requestBody;
        const operationPointer = `/paths/${escapePointer(template)}/${method}`;
        if (requestBody) found.push(...this.examplesOf(requestBody, `${operationPointer}/requestBody`, `${method.toUpperCase()} ${template} request`));
        for (const status of Object.keys(operation.responses)) {
          const pointer = this.responsePointer(template, method, status);
          if (pointer) found.push(...this.examplesOf(this.resolve(pointer), pointer, `${method.toUpperCase()} ${template} ${status}`));
        }
      }
    }
    for (const [name, item] of Object.entries(this.document.webhooks ?? {})) {
      const requestBody = item.post?.requestBody;
      if (requestBody) found.push(...this.examplesOf(requestBody, `/webhooks/${escapePointer(name)}/post/requestBody`, `webhook ${name} payload`));
    }
    return found;
  }

  validateAt(schemaPointer: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`${CONTRACT_ID}#${schemaPointer}`);
    if (!validate) return [`no schema at ${schemaPointer}`];
    if (validate(value)) return [];
    const schemaBase = this.schemaBase(schemaPointer);
    return (validate.errors ?? []).map((error) => describeViolation(error, { schemaBase }));
  }

  /** Where the rules of the schema at `pointer` are: the component it names, when it is a `$ref`. */
  private schemaBase(pointer: string): string {
    const ref = (this.resolve(pointer) as { $ref?: unknown } | undefined)?.$ref;
    return typeof ref === 'string' && ref.startsWith('#/') ? ref.slice(1) : pointer;
  }

  private examplesOf(container: ResponseObject, pointer: string, label: string) {
    const media = container.content?.['application/json'];
    return Object.entries(media?.examples ?? {}).map(([name, example]) => ({
      name: `${label} example "${name}"`,
      schemaPointer: `${pointer}/content/application~1json/schema`,
      value: example.$ref ? (this.resolve(example.$ref.slice(1)) as { value: unknown }).value : example.value,
    }));
  }

  private responsePointer(template: string, method: string, status: string): string | undefined {
    const response = this.document.paths[template]?.[method.toLowerCase()]?.responses[status] as ResponseObject | undefined;
    if (!response) return undefined;
    if (response.$ref) return response.$ref.slice(1);
    return `/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${status}`;
  }

  private resolve(pointer: string): ResponseObject {
    let node: unknown = this.document;
    for (const part of pointer.split('/').slice(1)) {
      node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node as ResponseObject;
  }

  private matchPathTemplate(path: string): string | undefined {
    return Object.keys(this.document.paths).find((template) => {
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      return new RegExp(`^${pattern}$`).test(path);
    });
  }
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
