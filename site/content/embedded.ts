/**
 * The content bundled into the single-file executable. In source form there is none: the site
 * reads `content/` from disk. `bun run site:compile` replaces this module, at build time, with one
 * that lists every file of `content/` (see `scripts/site-compile.ts`).
 */
import type { ContentEntry } from './types.ts';

/** The embedded content files, or undefined when running from source. */
export const EMBEDDED_CONTENT: readonly ContentEntry[] | undefined = undefined;
