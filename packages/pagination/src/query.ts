// The `limit`/`cursor` query schema: a Standard Schema v1 (https://standardschema.dev) written by hand,
// with the Standard JSON Schema extension so OpenAPI documents both parameters and the App knows `limit`
// is an integer.
import type {
  StandardIssue,
  StandardJsonSchemaConverter,
  StandardResult,
  StandardSchemaProps,
  StandardSchemaV1,
} from '@charter/core';
import { MAX_CURSOR_LENGTH } from './limits.ts';
import {
  type PaginationQueryOptions,
  type ResolvedPaginationQueryOptions,
  resolvePaginationQueryOptions,
} from './query-options.ts';

/**
 * What a pagination schema accepts: the request's query map, where values arrive as text (an array when
 * repeated) and the App has already turned a decimal `limit` into a number. Typed for the callers that
 * build a query (the typed client): the page size as a number or text, the cursor as text, and any
 * other parameter.
 */
export type PaginationQueryInput<L extends string = 'limit', C extends string = 'cursor'> = {
  readonly [K in L]?: number | string;
} & { readonly [K in C]?: string } & { readonly [param: string]: unknown };

/**
 * What a pagination schema gives the handler: the page size as a number, the cursor when one was sent,
 * and every other query parameter as it arrived (text, or an array of text when repeated).
 */
export type PaginationQueryOutput<L extends string = 'limit', C extends string = 'cursor'> = {
  [K in L]: number;
} & { [K in C]?: string } & { [param: string]: unknown };

/** The JSON Schema dialects the schema describes itself in (its keywords mean the same in all three). */
const TARGETS: ReadonlySet<string> = new Set(['draft-2020-12', 'draft-07', 'openapi-3.0']);

/** The Standard Schema `paginationQuery` returns; `options` are the resolved options, for link building. */
export interface PaginationQuerySchema<L extends string = 'limit', C extends string = 'cursor'>
  extends StandardSchemaV1<PaginationQueryInput<L, C>, PaginationQueryOutput<L, C>> {
  readonly '~standard': StandardSchemaProps<PaginationQueryInput<L, C>, PaginationQueryOutput<L, C>> & {
    readonly vendor: 'charter';
    readonly jsonSchema: StandardJsonSchemaConverter;
  };
  readonly options: ResolvedPaginationQueryOptions<L, C>;
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** The issue messages of one schema, written once when it is made rather than on every request. */
interface IssueMessages {
  readonly limitRepeated: string;
  readonly limitNotDecimal: string;
  readonly limitOutOfRange: string;
  readonly cursorRepeated: string;
  readonly cursorNotString: string;
  readonly cursorTooLong: string;
}

function issueMessages(o: ResolvedPaginationQueryOptions): IssueMessages {
  const range = `an integer from ${o.minLimit} to ${o.maxLimit}`;
  return {
    limitRepeated: `${o.limitParam} must be given once, as ${range}`,
    limitNotDecimal: `${o.limitParam} must be ${range}, written in decimal digits`,
    limitOutOfRange: `${o.limitParam} must be ${range}`,
    cursorRepeated: `${o.cursorParam} must be given once`,
    cursorNotString: `${o.cursorParam} must be a string`,
    cursorTooLong: `${o.cursorParam} must be at most ${MAX_CURSOR_LENGTH} characters`,
  };
}

/** The page size from the raw value, or the message of the issue it raises. */
function readLimit(raw: unknown, o: ResolvedPaginationQueryOptions, m: IssueMessages): number | string {
  // An empty value (`?limit=`, what a blank form field sends) counts as absent.
  if (raw === undefined || raw === '') return o.defaultLimit;
  if (Array.isArray(raw)) return m.limitRepeated;
  let value: number;
  if (typeof raw === 'string') {
    // Decimal digits only: no sign, space, exponent, fraction or hex, so one page size has one
    // spelling a cache can key on. (A `+` in a query string is a space anyway: URL §5.1.)
    if (!isDigits(raw)) return m.limitNotDecimal;
    value = Number(raw);
  } else if (typeof raw === 'number') {
    // The App converts a parameter its JSON Schema calls an integer before validation.
    value = raw;
  } else {
    return m.limitOutOfRange;
  }
  if (!Number.isSafeInteger(value) || value < o.minLimit || value > o.maxLimit) return m.limitOutOfRange;
  return value;
}

/** The message of the issue a given cursor raises, or undefined when it is acceptable. */
function cursorIssue(raw: unknown, m: IssueMessages): string | undefined {
  if (Array.isArray(raw)) return m.cursorRepeated;
  if (typeof raw !== 'string') return m.cursorNotString;
  if (raw.length > MAX_CURSOR_LENGTH) return m.cursorTooLong;
  return undefined;
}

function jsonSchemaFor(o: ResolvedPaginationQueryOptions, direction: 'input' | 'output') {
  return ({ target }: { readonly target: string }): Record<string, unknown> => {
    if (!TARGETS.has(target)) throw new Error(`paginationQuery: no JSON Schema for the target "${target}"`);
    const limit = { type: 'integer', minimum: o.minLimit, maximum: o.maxLimit, default: o.defaultLimit };
    const cursor = { type: 'string', maxLength: MAX_CURSOR_LENGTH };
    const schema: Record<string, unknown> = {
      type: 'object',
      properties: { [o.limitParam]: limit, [o.cursorParam]: cursor },
    };
    // After validation the page size is always there; other parameters stay allowed either way.
    if (direction === 'output') schema.required = [o.limitParam];
    return schema;
  };
}

/**
 * A Standard Schema for a route's `request.query`: `limit` (an integer from minLimit to maxLimit,
 * default min(20, maxLimit)) and an optional `cursor` of at most MAX_CURSOR_LENGTH characters. Bad
 * values are issues, so the App answers 422. Other query parameters pass through unchanged.
 * @example app.get('/items', { request: { query: paginationQuery() }, responses: { 200: {} } }, (ctx) => ...)
 */
export function paginationQuery<const L extends string = 'limit', const C extends string = 'cursor'>(
  options?: PaginationQueryOptions<L, C>,
): PaginationQuerySchema<L, C> {
  const o = resolvePaginationQueryOptions(options);
  const m = issueMessages(o);
  const validate = (input: unknown): StandardResult<PaginationQueryOutput<L, C>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { issues: [{ message: 'The query must be a map of parameters' }] };
    }
    const issues: StandardIssue[] = [];
    // A copy: the other parameters as they came (spread defines own properties, so even a `__proto__`
    // key stays a plain key), then the two this schema owns.
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    const limit = readLimit(out[o.limitParam], o, m);
    if (typeof limit === 'string') issues.push({ message: limit, path: [o.limitParam] });
    else out[o.limitParam] = limit;
    const cursor = out[o.cursorParam];
    // An empty cursor (`?cursor=`, a blank form field) counts as absent, like an empty limit.
    if (cursor === undefined || cursor === '') {
      delete out[o.cursorParam];
    } else {
      const issue = cursorIssue(cursor, m);
      if (issue !== undefined) issues.push({ message: issue, path: [o.cursorParam] });
    }
    if (issues.length > 0) return { issues };
    return { value: out as PaginationQueryOutput<L, C> };
  };
  return Object.freeze({
    options: o,
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'charter' as const,
      validate,
      jsonSchema: Object.freeze({ input: jsonSchemaFor(o, 'input'), output: jsonSchemaFor(o, 'output') }),
    }),
  });
}
