/**
 * An independent second opinion on the fuzzer's traffic: openapi-backend (5.21.2), fed the same
 * OpenAPI document, routes each request itself and validates each answer with its own Ajv (the
 * JSON Schema 2020-12 build of the Ajv it ships, as OpenAPI 3.1 needs), and the two must agree on
 * every exchange: the status is declared, the body fits its schema, the documented headers that are
 * there fit theirs.
 */
import { createRequire } from 'node:module';
import OpenAPIBackend, { OpenAPIValidator, ValidationContext } from 'openapi-backend';
import { checkJsonSchema, type FuzzAnswer, type FuzzRequest } from '@charter/client';

// openapi-backend's own Ajv, in its 2020-12 form (its default build speaks draft-07).
const requireFromBackend = createRequire(require.resolve('openapi-backend'));
const Ajv2020 = requireFromBackend('ajv/dist/2020').default as new (options: object) => unknown;

const VERBS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** What one side says of one exchange. */
export interface Verdict {
  readonly statusDeclared: boolean;
  /** Undefined when that side does not judge this body (no schema, or a media type it does not read). */
  readonly bodyValid: boolean | undefined;
  readonly headersValid: boolean;
}

/** One exchange where the two validators disagree. */
export interface Disagreement {
  readonly request: FuzzRequest;
  readonly status: number;
  readonly charter: Verdict;
  readonly openapiBackend: Verdict;
}

type Operation = {
  operationId: string;
  responses?: Record<
    string,
    { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }
  >;
};

function essence(type: string | null): string {
  return (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/** The cross-checker of one document: `check(request, answer)` records each exchange's verdicts. */
export async function crossChecker(document: Record<string, unknown>) {
  const definition = structuredClone(document) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  // openapi-backend keys its validators by operationId: name the operations that have none.
  for (const [path, item] of Object.entries(definition.paths)) {
    for (const verb of VERBS) {
      const operation = item[verb];
      if (operation !== undefined) operation.operationId ??= `${verb} ${path}`;
    }
  }
  const api = new OpenAPIBackend({
    definition: definition as never,
    strict: false,
    // Its definition check speaks OpenAPI 3.0 (it refuses 3.1's `const`, `info.summary`): the document is
    // checked as 3.1 elsewhere (tests/e2e, packages/openapi), so that step is skipped here.
    quick: true,
    customizeAjv: (_ajv: unknown, options: object) =>
      new Ajv2020({ ...options, strict: false, validateFormats: false }) as never,
  });
  await api.init();
  const ajv = api.validator.getAjv(ValidationContext.Response);
  const compiled = new Map<unknown, (value: unknown) => boolean>();
  const validatorFor = (schema: unknown) => {
    let fn = compiled.get(schema);
    if (fn === undefined) {
      // Its own compile step (circular references included), private in its types only.
      const validator = OpenAPIValidator as unknown as {
        compileSchema(ajv: unknown, schema: unknown): (value: unknown) => boolean;
      };
      fn = validator.compileSchema(ajv, schema);
      compiled.set(schema, fn);
    }
    return fn;
  };
  const disagreements: Disagreement[] = [];
  let exchanges = 0;
  let unrouted = 0;
  let judgedBodies = 0;

  /** openapi-backend's verdict, from its own router and validators. */
  const theirs = (request: FuzzRequest, answer: FuzzAnswer): Verdict | undefined => {
    const url = new URL(request.url, 'http://localhost');
    const operation = api.matchOperation({
      method: request.method,
      path: url.pathname,
      headers: request.headers,
      query: url.search.slice(1),
    }) as Operation | undefined;
    if (operation === undefined) return undefined;
    const responses = operation.responses ?? {};
    const response =
      responses[String(answer.status)] ??
      responses[`${Math.floor(answer.status / 100)}XX`] ??
      responses.default;
    if (response === undefined) return { statusDeclared: false, bodyValid: undefined, headersValid: true };
    const type = essence(answer.headers.get('content-type'));
    let bodyValid: boolean | undefined;
    const schema = response.content?.[type]?.schema;
    if (answer.body !== undefined && answer.body !== '' && schema !== undefined) {
      if (type === 'application/json') {
        let value: unknown;
        try {
          value = JSON.parse(answer.body);
          bodyValid = api.validateResponse(value, operation.operationId, answer.status).valid;
        } catch {
          bodyValid = false;
        }
      } else if (isJson(type)) {
        try {
          bodyValid = validatorFor(schema)(JSON.parse(answer.body));
        } catch {
          bodyValid = false;
        }
      } else if (type.startsWith('text/')) {
        bodyValid = validatorFor(schema)(answer.body);
      }
    }
    const present: Record<string, string> = {};
    for (const name of Object.keys(response.headers ?? {})) {
      const value = answer.headers.get(name);
      if (value !== null && name.toLowerCase() !== 'content-type') present[name.toLowerCase()] = value;
    }
    const headers = api.validateResponseHeaders(present, operation.operationId, {
      statusCode: answer.status,
      setMatchType: 'any' as never,
    });
    return { statusDeclared: true, bodyValid, headersValid: headers.valid };
  };

  /** Charter's verdict: the fuzzer's own checker, read back from the codes it reports. */
  const ours = (codes: readonly string[], judged: boolean): Verdict => ({
    statusDeclared: !codes.includes('undeclared-status'),
    bodyValid: judged ? !codes.includes('body-off-schema') : undefined,
    headersValid: !codes.includes('header-off-schema'),
  });

  return {
    /** Records one exchange; `codes` are the fuzzer's findings for it. */
    check(request: FuzzRequest, answer: FuzzAnswer, codes: readonly string[]): void {
      exchanges++;
      const other = theirs(request, answer);
      if (other === undefined) {
        unrouted++;
        return;
      }
      if (other.bodyValid !== undefined) judgedBodies++;
      const charter = ours(codes, other.bodyValid !== undefined);
      if (
        charter.statusDeclared !== other.statusDeclared ||
        charter.bodyValid !== other.bodyValid ||
        charter.headersValid !== other.headersValid
      ) {
        disagreements.push({ request, status: answer.status, charter, openapiBackend: other });
      }
    },
    get exchanges() {
      return exchanges;
    },
    /** Exchanges openapi-backend's router could not place (a path with control characters, say). */
    get unrouted() {
      return unrouted;
    },
    /** Exchanges whose body openapi-backend validated against a schema. */
    get judgedBodies() {
      return judgedBodies;
    },
    get disagreements(): readonly Disagreement[] {
      return disagreements;
    },
  };
}

export { checkJsonSchema };
