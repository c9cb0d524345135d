// Options of `paginationQuery`, with the defaults of the framework spec ("Pagination helpers" and the
// "Page size" row of "Limits"), checked once when the schema is made.
import { DEFAULT_MAX_LIMIT, DEFAULT_MIN_LIMIT, DEFAULT_PAGE_SIZE } from './limits.ts';

/** Options of `paginationQuery`. */
export interface PaginationQueryOptions<L extends string = 'limit', C extends string = 'cursor'> {
  /** Name of the query parameter holding the cursor; default `cursor`. */
  cursorParam?: C;
  /** Name of the query parameter holding the page size; default `limit`. */
  limitParam?: L;
  /** Page size when the request gives none; default min(20, maxLimit). */
  defaultLimit?: number;
  /** Smallest page size accepted; default 1 (and never below 1). */
  minLimit?: number;
  /** Largest page size accepted; default 100. */
  maxLimit?: number;
}

/** `PaginationQueryOptions` with every default filled in. */
export interface ResolvedPaginationQueryOptions<L extends string = string, C extends string = string> {
  readonly cursorParam: C;
  readonly limitParam: L;
  readonly defaultLimit: number;
  readonly minLimit: number;
  readonly maxLimit: number;
}

function paramName(value: unknown, option: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new TypeError(`paginationQuery: ${option} must be a string`);
  if (value === '') throw new RangeError(`paginationQuery: ${option} must not be empty`);
  // The App's query parser drops a `__proto__` parameter (it could reach a prototype), so it never arrives.
  if (value === '__proto__') throw new RangeError(`paginationQuery: ${option} must not be "__proto__"`);
  return value;
}

function integer(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`paginationQuery: ${option} must be an integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Checks the options and fills the defaults: integers with 1 <= minLimit <= defaultLimit <= maxLimit,
 * and two distinct, non-empty parameter names. Throws a TypeError (wrong type) or RangeError (wrong
 * value) naming the option.
 */
export function resolvePaginationQueryOptions<L extends string = 'limit', C extends string = 'cursor'>(
  options: PaginationQueryOptions<L, C> = {},
): ResolvedPaginationQueryOptions<L, C> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('paginationQuery: the options must be an object');
  }
  const cursorParam = paramName(options.cursorParam, 'cursorParam', 'cursor') as C;
  const limitParam = paramName(options.limitParam, 'limitParam', 'limit') as L;
  if ((cursorParam as string) === limitParam) {
    throw new RangeError(
      `paginationQuery: cursorParam and limitParam must differ (both are "${limitParam}")`,
    );
  }
  const minLimit = integer(options.minLimit, 'minLimit') ?? DEFAULT_MIN_LIMIT;
  const maxLimit = integer(options.maxLimit, 'maxLimit') ?? DEFAULT_MAX_LIMIT;
  if (minLimit < 1) throw new RangeError(`paginationQuery: minLimit must be at least 1, got ${minLimit}`);
  if (maxLimit < minLimit) {
    throw new RangeError(`paginationQuery: maxLimit (${maxLimit}) must be at least minLimit (${minLimit})`);
  }
  const given = integer(options.defaultLimit, 'defaultLimit');
  const defaultLimit = given ?? Math.min(DEFAULT_PAGE_SIZE, maxLimit);
  if (defaultLimit < minLimit || defaultLimit > maxLimit) {
    const which =
      given === undefined
        ? `its default min(${DEFAULT_PAGE_SIZE}, maxLimit) = ${defaultLimit}`
        : defaultLimit;
    throw new RangeError(
      `paginationQuery: defaultLimit (${which}) must be from minLimit (${minLimit}) to maxLimit (${maxLimit})` +
        (given === undefined ? '; set defaultLimit' : ''),
    );
  }
  return Object.freeze({ cursorParam, limitParam, defaultLimit, minLimit, maxLimit });
}
