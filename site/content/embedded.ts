/**
 * The content bundled into the single-file executable. In source form there is none: the site
 * reads `content/` from disk and builds it at start-up. `bun run site:compile` builds the content
 * when it compiles and replaces this module, at build time, with one that holds the result as plain
 * data (`contentData`, see `scripts/site-compile.ts`), so the executable starts without reading,
 * parsing or rendering any Markdown.
 */
import type { ContentData } from './prebuilt.ts';

/** The built content, or undefined when running from source. */
export const EMBEDDED_CONTENT: ContentData | undefined = undefined;
