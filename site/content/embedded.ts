/**
 * Where the site's content comes from at start-up. In source form, from `content/` on disk, read and
 * built now (the Markdown renderer and the highlighter are loaded only here). `bun run site:compile`
 * builds the content when it compiles and replaces this module, at build time, with one that holds
 * the result as plain data (`contentData`, see `scripts/site-compile.ts`) and the same exports, so
 * the executable starts without reading, parsing or rendering any Markdown, and holds none of the
 * code that would.
 */
import type { ContentSite } from './types.ts';

/** Whether the content was built when the executable was compiled (false: read from disk). */
export const EMBEDDED = false;

/** The built content: here, `dir` read and built (`buildContent` throws on a broken page). */
export async function loadContent(dir: string): Promise<ContentSite> {
  const [{ buildContent }, { readContentDir }] = await Promise.all([
    import('./build.ts'),
    import('./read-dir.ts'),
  ]);
  return buildContent(await readContentDir(dir));
}
