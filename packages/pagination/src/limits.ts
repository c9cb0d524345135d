// The limits of the framework spec's "Limits" table that pagination enforces.

/** The longest cursor token accepted, in characters (spec "Limits": cursor length 4096). */
export const MAX_CURSOR_LENGTH = 4096;

/** The page size when a route gives none and `maxLimit` allows it (spec: default min(20, maxLimit)). */
export const DEFAULT_PAGE_SIZE = 20;

/** The smallest page size accepted by default. */
export const DEFAULT_MIN_LIMIT = 1;

/** The largest page size accepted by default. */
export const DEFAULT_MAX_LIMIT = 100;
