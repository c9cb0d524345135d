/**
 * The property-based mode of `runContractTests`: for every operation of the app's OpenAPI document,
 * requests made from the operation's own schemas (valid ones and invalid ones, field by field) are
 * sent in process, and every answer is checked against the document. Seeded, bounded, and
 * deterministic for a seed: the same seed sends the same requests.
 */
import type { HttpMethod } from '@charter/core';
import { checkAnswer, type FuzzAnswer, type FuzzFindingCode, FUZZ_WARNING_CODES } from './fuzz-check.ts';
import { type FuzzOperation, type FuzzRequest, OperationRequests } from './fuzz-requests.ts';
import { Random, seedFor } from './fuzz-values.ts';

export type { FuzzAnswer } from './fuzz-check.ts';
export type { FuzzRequest } from './fuzz-requests.ts';

/** Options of the property-based mode (`runContractTests(app, { fuzz })`). */
export interface ContractFuzzOptions {
  /** The seed; default 1. The same seed sends the same requests. */
  seed?: number;
  /** Requests per operation, valid and invalid; default 40 (1 to 10,000). */
  requestsPerRoute?: number;
  /** Report the checks beyond what the document states (warnings) as issues too; default false. */
  strict?: boolean;
  /** The OpenAPI document, or the path the app serves it at; default `/openapi.json`. */
  document?: string | Readonly<Record<string, unknown>>;
  /** Origin of the requests (what `Host` says); default `http://localhost`. */
  origin?: string;
  /** Header fields sent with every request (a token, an API key), unless a request sets its own. */
  headers?: Readonly<Record<string, string>>;
  /** How long an answer, and then its body, may take before `no-answer` (or a stream is assumed); default 10,000 ms. */
  answerTimeoutMs?: number;
  /**
   * Called with every request, its answer and what the fuzzer found in it (findings and warnings), for
   * example to feed another validator the same traffic.
   */
  observe?: (request: FuzzRequest, answer: FuzzAnswer, found: readonly FuzzFinding[]) => void | Promise<void>;
}

export interface ResolvedFuzzOptions {
  readonly seed: number;
  readonly requestsPerRoute: number;
  readonly strict: boolean;
  readonly document: string | Readonly<Record<string, unknown>>;
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly answerTimeoutMs: number;
  readonly observe: ContractFuzzOptions['observe'];
}

/** One thing an answer got wrong, with the request that shows it. */
export interface FuzzFinding {
  /** The operation's path template (`/users/{id}`). */
  readonly route: string;
  readonly method: HttpMethod;
  readonly code: FuzzFindingCode;
  readonly message: string;
  readonly request: FuzzRequest;
}

/** What the property-based mode did and found. */
export interface FuzzReport {
  readonly seed: number;
  /** Operations fuzzed, and requests sent. */
  readonly routes: number;
  readonly requests: number;
  /** Answers that break the document. */
  readonly findings: readonly FuzzFinding[];
  /** Checks beyond the document (a valid request refused, a documented optional header absent). */
  readonly warnings: readonly FuzzFinding[];
}

/** What the fuzzer needs of an app. */
export interface FuzzApp {
  fetch(request: Request): Promise<Response>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`runContractTests option fuzz.${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

const FUZZ_OPTION_NAMES: readonly string[] = [
  'seed',
  'requestsPerRoute',
  'strict',
  'document',
  'origin',
  'headers',
  'answerTimeoutMs',
  'observe',
];

/** Validates the `fuzz` option (true for the defaults); throws a TypeError naming the bad member. */
export function resolveFuzzOptions(options: true | ContractFuzzOptions): ResolvedFuzzOptions {
  const o: ContractFuzzOptions = options === true ? {} : options;
  if (typeof o !== 'object' || o === null)
    throw new TypeError('runContractTests option fuzz must be true or an object');
  for (const key of Object.keys(o)) {
    if (!FUZZ_OPTION_NAMES.includes(key)) {
      throw new TypeError(
        `runContractTests option fuzz.${key} is not an option (options: ${FUZZ_OPTION_NAMES.join(', ')})`,
      );
    }
  }
  if (o.strict !== undefined && typeof o.strict !== 'boolean') {
    throw new TypeError('runContractTests option fuzz.strict must be a boolean');
  }
  const document = o.document ?? '/openapi.json';
  if (
    typeof document === 'string'
      ? !document.startsWith('/')
      : typeof document !== 'object' || document === null
  ) {
    throw new TypeError(
      'runContractTests option fuzz.document must be a path starting with "/" or an OpenAPI document',
    );
  }
  const origin = o.origin ?? 'http://localhost';
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed.origin !== origin) {
    throw new TypeError(
      `runContractTests option fuzz.origin must be an origin such as http://localhost, got ${String(origin)}`,
    );
  }
  const headers = o.headers ?? {};
  if (
    typeof headers !== 'object' ||
    headers === null ||
    Object.values(headers).some((v) => typeof v !== 'string')
  ) {
    throw new TypeError('runContractTests option fuzz.headers must be an object of strings');
  }
  if (o.observe !== undefined && typeof o.observe !== 'function') {
    throw new TypeError('runContractTests option fuzz.observe must be a function');
  }
  return Object.freeze({
    seed: integer('seed', o.seed, 1, 0, 0xffffffff),
    requestsPerRoute: integer('requestsPerRoute', o.requestsPerRoute, 40, 1, 10_000),
    strict: o.strict ?? false,
    document,
    origin,
    headers: { ...headers },
    answerTimeoutMs: integer('answerTimeoutMs', o.answerTimeoutMs, 10_000, 1, 600_000),
    observe: o.observe,
  });
}

/** The Request a fuzzer request stands for, sent to its origin: `app.fetch(replayRequest(finding.request))` replays it. */
export function replayRequest(request: FuzzRequest, origin = request.origin ?? 'http://localhost'): Request {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.body !== undefined) init.body = request.body;
  return new Request(origin + request.url, init);
}

async function loadDocument(app: FuzzApp, options: ResolvedFuzzOptions): Promise<Record<string, unknown>> {
  if (typeof options.document !== 'string') return options.document as Record<string, unknown>;
  const response = await app.fetch(
    new Request(options.origin + options.document, { headers: options.headers }),
  );
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.toLowerCase().includes('json')) {
    await response.body?.cancel();
    throw new TypeError(
      `runContractTests fuzz: GET ${options.document} answered ${response.status} (${type || 'no Content-Type'}), ` +
        'not the OpenAPI document; mount it (App option openapi) or pass fuzz.document',
    );
  }
  return (await response.json()) as Record<string, unknown>;
}

function timer(ms: number): { promise: Promise<'timeout'>; cancel(): void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<'timeout'>((resolve) => {
    handle = setTimeout(() => resolve('timeout'), ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}

/** The body as text, or undefined when it does not end in time or passes the size cap (a stream). */
async function readBody(response: Response, timeoutMs: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = timer(timeoutMs);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline.promise]);
      if (next === 'timeout' || size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      if (next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
    }
  } finally {
    deadline.cancel();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

async function send(
  app: FuzzApp,
  request: FuzzRequest,
  options: ResolvedFuzzOptions,
): Promise<FuzzAnswer | undefined> {
  const deadline = timer(options.answerTimeoutMs);
  try {
    const answered = await Promise.race([
      app.fetch(replayRequest(request, options.origin)),
      deadline.promise,
    ]);
    if (answered === 'timeout') return undefined;
    deadline.cancel();
    // An event stream (WHATWG HTML §9.2) need never end: it is judged on its status and media type.
    const type = (answered.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    let body: string | undefined;
    if (request.method === 'HEAD') body = '';
    else if (type === 'text/event-stream') await answered.body?.cancel().catch(() => undefined);
    else body = await readBody(answered, options.answerTimeoutMs);
    return { status: answered.status, headers: answered.headers, body };
  } finally {
    deadline.cancel();
  }
}

const WARNINGS: ReadonlySet<string> = new Set(FUZZ_WARNING_CODES);

function isBareString(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return schema === undefined;
  const keys = Object.keys(schema).filter((k) => k !== 'description');
  return keys.length === 1 && (schema as { type?: unknown }).type === 'string';
}

/** Runs the property-based mode over every operation of the app's document. */
export async function fuzzContract(app: FuzzApp, options: ResolvedFuzzOptions): Promise<FuzzReport> {
  const document = await loadDocument(app, options);
  const paths = (document.paths ?? {}) as Record<string, Record<string, FuzzOperation> | undefined>;
  const findings: FuzzFinding[] = [];
  const warnings: FuzzFinding[] = [];
  let routes = 0;
  let requests = 0;
  for (const [template, item] of Object.entries(paths)) {
    for (const verb of METHODS) {
      const operation = item?.[verb];
      if (operation === undefined) continue;
      routes++;
      const method = verb.toUpperCase() as HttpMethod;
      const random = new Random(seedFor(options.seed, `${method} ${template}`));
      const built = new OperationRequests(method, template, operation, document, random).build(
        options.requestsPerRoute,
        options.seed,
      );
      // A path parameter described as any string: nothing but the handler checks what arrives.
      const unchecked = (operation.parameters ?? []).filter(
        (p) => p.in === 'path' && isBareString(p.schema) && p['x-charter-wildcard'] !== true,
      );
      const first = built[0];
      if (unchecked.length > 0 && first !== undefined) {
        warnings.push(
          Object.freeze({
            route: template,
            method,
            code: 'parameter-without-schema' as const,
            message: `the path parameter${unchecked.length > 1 ? 's' : ''} ${unchecked.map((p) => p.name).join(', ')} ${unchecked.length > 1 ? 'have' : 'has'} no schema beyond "a string"`,
            request: { ...first, origin: options.origin },
          }),
        );
      }
      for (const generated of built) {
        const request: FuzzRequest = {
          ...generated,
          origin: options.origin,
          headers: { ...options.headers, ...generated.headers },
        };
        requests++;
        const found: FuzzFinding[] = [];
        const report = (code: FuzzFindingCode, message: string) => {
          const text = `${message} [${request.intent}]`;
          const finding = Object.freeze({ route: template, method, code, message: text, request });
          found.push(finding);
          (WARNINGS.has(code) ? warnings : findings).push(finding);
        };
        const answer = await send(app, request, options);
        if (answer === undefined) {
          report('no-answer', `no answer within ${options.answerTimeoutMs} ms`);
          continue;
        }
        for (const problem of checkAnswer(operation.responses, answer, document)) {
          report(problem.code, problem.message);
        }
        if (request.valid && (answer.status === 400 || answer.status === 422)) {
          report(
            'valid-request-refused',
            `a request made to fit the schemas was refused with ${answer.status}`,
          );
        }
        await options.observe?.(request, answer, found);
      }
    }
  }
  return Object.freeze({
    seed: options.seed,
    routes,
    requests,
    findings: Object.freeze(findings),
    warnings: Object.freeze(warnings),
  });
}
