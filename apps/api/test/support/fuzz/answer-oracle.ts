import type { ContractValidator } from '@paysign/contracts/testing';
import type { RawResponse } from './raw-request';

const ERROR_SCHEMA = '/components/schemas/Error';
const OUTSIDE_CONTRACT = /is not (a path|an operation) of the contract$/;
const UNDOCUMENTED_STATUS = /does not document status \d+$/;
/** Refusals of Node's HTTP parser, before any route sees the request: the JSON error body on every path, the HTML routes' included. */
const REFUSED_BEFORE_ROUTING = new Set(['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT']);

export interface AnswerToJudge {
  method: string;
  /** The request target as sent, query included. */
  target: string;
  /** Undefined when the service never answered. */
  response: RawResponse | undefined;
  /** Whether this route answers its errors as HTML pages (the checkout). */
  htmlErrors: boolean;
  /** Lines the service logged at error level or above while it served the request. */
  errorsLogged: ReadonlyArray<Record<string, unknown>>;
}

export interface Judgement {
  problems: string[];
  /** Set when the operation's contract does not list the status, though the body has the error shape: a gap in the contract rather than a failure. */
  undocumentedStatus?: string;
}

/**
 * What is wrong with one answer, if anything: the oracle of the fuzz suite.
 * No 5xx (the suite never takes a store down, so not even 503); no error
 * logged; every answer to a contract path as the contract documents it;
 * every other non-2xx answer a JSON error body of the contract's Error shape,
 * except the HTML pages of the routes that answer in HTML.
 */
export function judgeAnswer(contract: ContractValidator, answer: AnswerToJudge): Judgement {
  const problems = answer.errorsLogged.map((line) => `the service logged an error: ${JSON.stringify({ msg: line.msg, err: line.err })}`);
  const { response } = answer;
  if (!response) return { problems: [...problems, 'no answer: the service closed the connection, or did not answer in time'] };
  const { undocumentedStatus, ...judged } = shapeProblems(contract, answer, response);
  return { problems: [...problems, ...judged.problems], ...(undocumentedStatus ? { undocumentedStatus } : {}) };
}

function shapeProblems(contract: ContractValidator, answer: AnswerToJudge, response: RawResponse): Judgement {
  const problems: string[] = [];
  const { status } = response;
  if (status >= 500) problems.push(`answered ${status}`);
  const contentType = response.headers.get('content-type')?.[0] ?? '';
  const isJson = /^application\/json/i.test(contentType);
  const text = response.body.toString('utf8');
  let body: unknown = text;
  if (isJson && answer.method !== 'HEAD') {
    try {
      body = JSON.parse(text);
    } catch {
      return { problems: [...problems, `answered ${status} with a JSON Content-Type but a body that is not JSON`] };
    }
  }
  if (answer.method === 'HEAD') return { problems };
  const errorShape = () => contract.validateAt(ERROR_SCHEMA, body).map((v) => `answered ${status} with a body outside the Error schema: ${v}`);
  if (isJson && status >= 400 && REFUSED_BEFORE_ROUTING.has(String((body as { code?: unknown } | null)?.code))) return { problems: [...problems, ...errorShape()] };

  const path = pathOf(answer.target);
  const violations = path === undefined ? ['not a path of the contract'] : contract.validateResponse({ method: answer.method, path, status, body });
  const only = violations.length === 1 ? (violations[0] as string) : undefined;
  const outside = only !== undefined && (OUTSIDE_CONTRACT.test(only) || only === 'not a path of the contract');
  const undocumented = only !== undefined && UNDOCUMENTED_STATUS.test(only) && status >= 400;
  if (!outside && !undocumented) return { problems: [...problems, ...violations.map((v) => `answered ${status} outside the contract: ${v}`)] };
  if (status < 300) return { problems };
  const gap = undocumented ? { undocumentedStatus: `${only} (${isJson ? String((body as { code?: unknown }).code) : contentType})` } : {};
  if (!isJson) {
    if (answer.htmlErrors && /^text\/html/i.test(contentType)) return { problems, ...gap };
    return { problems: [...problems, `answered ${status} with Content-Type "${contentType}", not the JSON error body`] };
  }
  return { problems: [...problems, ...errorShape()], ...gap };
}

/** The path of a request target as the service reads it (up to a query, or to a raw space, which ends the target), to match the contract's templates; undefined for one that is no path. */
function pathOf(target: string): string | undefined {
  const path = target.split(/[?\s]/)[0] ?? '';
  return path.startsWith('/') ? path : undefined;
}

/** One line for a failure report: the status, the Content-Type and the start of the body. */
export function describeResponse(response: RawResponse | undefined): string {
  if (!response) return '(no answer)';
  const body = response.body.toString('utf8');
  return `${response.status} ${response.headers.get('content-type')?.[0] ?? '(no content-type)'} ${body.length > 400 ? `${body.slice(0, 400)}…` : body}`;
}
