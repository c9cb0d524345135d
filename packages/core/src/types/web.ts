/**
 * Fetch types the DOM lib names but Node's and Bun's type declarations do not declare globally,
 * spelled from what they do declare, so the published declarations need no DOM lib.
 */

/** What `new Headers(init)` accepts: the Fetch standard's `HeadersInit`. */
export type HeadersInit = NonNullable<ConstructorParameters<typeof Headers>[0]>;
