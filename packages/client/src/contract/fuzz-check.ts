/**
 * Checks one answer against its operation in the OpenAPI document (OpenAPI 3.1 §4.8.16 Responses,
 * §4.8.17 Response, §4.8.14 Media Type, §4.8.21 Header): the status is declared, the media type is
 * listed, the body is valid against the listed schema, the required headers are there and every
 * documented header that is there fits its schema.
 */
import { checkJsonSchema } from './json-schema-check.ts';

/** What the fuzzer reports; the first group breaks the document, the second only warns. */
export const FUZZ_FINDING_CODES = [
  'undeclared-status',
  'media-type-not-listed',
  'undocumented-body',
  'body-off-schema',
  'missing-header',
  'header-off-schema',
  'no-answer',
] as const;

/** Checks beyond what the document states: warnings, findings only with `strict`. */
export const FUZZ_WARNING_CODES = [
  'documented-header-absent',
  'valid-request-refused',
  'parameter-without-schema',
] as const;

export type FuzzFindingCode = (typeof FUZZ_FINDING_CODES)[number] | (typeof FUZZ_WARNING_CODES)[number];

/** An answer as read by the fuzzer. */
export interface FuzzAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body text; undefined when it did not end in time or was too large (a stream). */
  readonly body: string | undefined;
}

interface DocResponse {
  readonly content?: Readonly<Record<string, { readonly schema?: unknown }>>;
  readonly headers?: Readonly<Record<string, { readonly schema?: unknown; readonly required?: boolean }>>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function essence(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The documented media type that covers `sent` (exact, then `type/*`, then `*\/*`: §4.8.14 ranges). */
export function listedMediaType(
  content: Readonly<Record<string, unknown>>,
  sent: string,
): string | undefined {
  const wanted = essence(sent);
  const keys = Object.keys(content);
  return (
    keys.find((key) => essence(key) === wanted) ??
    keys.find((key) => essence(key) === `${wanted.split('/')[0]}/*`) ??
    keys.find((key) => essence(key) === '*/*')
  );
}

function isJsonType(type: string): boolean {
  const e = essence(type);
  return e === 'application/json' || e.endsWith('+json');
}

/** A header's text as the value its schema describes (an integer header is a number, and so on). */
function headerValue(text: string, schema: unknown, root: unknown): unknown {
  const type = schemaType(schema, root, 0);
  if (type === 'integer' || type === 'number') {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** The `type` a schema names, through `$ref`s into the document. */
function schemaType(schema: unknown, root: unknown, depth: number): unknown {
  if (!isObject(schema) || depth > 16) return undefined;
  if (schema.type !== undefined) return schema.type;
  if (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const key of schema.$ref.slice(2).split('/')) target = isObject(target) ? target[key] : undefined;
  return schemaType(target, root, depth + 1);
}

/** The response a status falls under: the status itself, its range (`4XX`), else `default` (§4.8.16.2). */
export function documentedResponse(
  responses: Readonly<Record<string, unknown>> | undefined,
  status: number,
): DocResponse | undefined {
  const table = responses ?? {};
  const entry = table[String(status)] ?? table[`${Math.floor(status / 100)}XX`] ?? table.default;
  return isObject(entry) ? (entry as DocResponse) : undefined;
}

/** One problem with an answer. */
export interface AnswerProblem {
  readonly code: FuzzFindingCode;
  readonly message: string;
}

/** The title and detail of a problem answer, to say why a status came. */
function problemSummary(answer: FuzzAnswer): string {
  if (answer.body === undefined) return '';
  try {
    const problem = JSON.parse(answer.body) as { title?: unknown; detail?: unknown };
    const parts = [problem.title, problem.detail].filter((p) => typeof p === 'string');
    return parts.length === 0 ? '' : `: ${parts.join(' - ').slice(0, 300)}`;
  } catch {
    return '';
  }
}

/** Checks an answer against the operation's responses; `root` (the document) resolves `$ref`s. */
export function checkAnswer(
  responses: Readonly<Record<string, unknown>> | undefined,
  answer: FuzzAnswer,
  root: unknown,
): AnswerProblem[] {
  const documented = documentedResponse(responses, answer.status);
  if (documented === undefined) {
    const listed = Object.keys(responses ?? {}).join(', ');
    return [
      {
        code: 'undeclared-status',
        message: `answered ${answer.status}, which the operation does not list (${listed})${problemSummary(answer)}`,
      },
    ];
  }
  const out: AnswerProblem[] = [];
  const sent = answer.headers.get('content-type');
  const hasBody = answer.body === undefined || answer.body.length > 0;
  const content = documented.content;
  if (hasBody && answer.status !== 204 && answer.status !== 304) {
    if (content === undefined || Object.keys(content).length === 0) {
      out.push({
        code: 'undocumented-body',
        message: `answered ${answer.status} with a body (${sent ?? 'no Content-Type'}), but the response lists no content`,
      });
    } else if (sent === null) {
      out.push({
        code: 'media-type-not-listed',
        message: `answered ${answer.status} with a body and no Content-Type; listed: ${Object.keys(content).join(', ')}`,
      });
    } else {
      const key = listedMediaType(content, sent);
      if (key === undefined) {
        out.push({
          code: 'media-type-not-listed',
          message: `answered ${answer.status} as ${sent}, which the response does not list (${Object.keys(content).join(', ')})`,
        });
      } else if (answer.body !== undefined) {
        out.push(...bodyProblems(content[key]?.schema, sent, answer, root));
      }
    }
  }
  out.push(...headerProblems(documented, answer, root));
  return out;
}

function bodyProblems(schema: unknown, sent: string, answer: FuzzAnswer, root: unknown): AnswerProblem[] {
  if (schema === undefined || answer.body === undefined) return [];
  let value: unknown;
  if (isJsonType(sent)) {
    try {
      value = JSON.parse(answer.body);
    } catch {
      return [
        {
          code: 'body-off-schema',
          message: `answered ${answer.status} as ${sent}, but the body is not JSON`,
        },
      ];
    }
  } else if (essence(sent).startsWith('text/')) {
    value = answer.body;
  } else {
    return [];
  }
  const issues = checkJsonSchema(schema, value, root);
  if (issues.length === 0) return [];
  return [
    {
      code: 'body-off-schema',
      message: `answered ${answer.status} (${essence(sent)}) with a body its schema refuses: ${issues.slice(0, 5).join('; ')}`,
    },
  ];
}

function headerProblems(documented: DocResponse, answer: FuzzAnswer, root: unknown): AnswerProblem[] {
  const out: AnswerProblem[] = [];
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    // §4.8.21: a Content-Type response header is described by the media types, not here.
    if (name.toLowerCase() === 'content-type') continue;
    const text = answer.headers.get(name);
    if (text === null) {
      out.push(
        header.required === true
          ? {
              code: 'missing-header',
              message: `answered ${answer.status} without the required header ${name}`,
            }
          : {
              code: 'documented-header-absent',
              message: `answered ${answer.status} without the documented header ${name} (not marked required)`,
            },
      );
      continue;
    }
    if (header.schema === undefined) continue;
    const issues = checkJsonSchema(header.schema, headerValue(text, header.schema, root), root);
    if (issues.length > 0) {
      out.push({
        code: 'header-off-schema',
        message: `answered ${answer.status} with a ${name} its schema refuses (${JSON.stringify(text.slice(0, 80))}): ${issues.slice(0, 3).join('; ')}`,
      });
    }
  }
  return out;
}
