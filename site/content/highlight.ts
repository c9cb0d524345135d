/**
 * Build-time syntax highlighting for code blocks: no client JavaScript, and output that is safe by
 * construction (HTML-escaped text inside non-nested `<span class="tok-...">` elements).
 */
import { highlightHttp, highlightJson, highlightShell } from './highlight-data.ts';
import { highlightScript } from './highlight-script.ts';
import { TokenSink } from './highlight-sink.ts';

export type { TokenKind } from './highlight-sink.ts';

type Highlighter = (code: string, sink: TokenSink) => void;

const HIGHLIGHTERS: ReadonlyMap<string, Highlighter> = new Map<string, Highlighter>([
  ['ts', highlightScript],
  ['typescript', highlightScript],
  ['js', highlightScript],
  ['javascript', highlightScript],
  // The API reference: declarations as `.d.ts` files hold them, and doc-comment examples (neither
  // is type-checked as a page's TypeScript is, by tests/content).
  ['d.ts', highlightScript],
  ['ts-example', highlightScript],
  ['json', highlightJson],
  ['sh', highlightShell],
  ['bash', highlightShell],
  ['shell', highlightShell],
  ['http', highlightHttp],
]);

/** Languages `highlight` colours; any other language is rendered as escaped plain text. */
export const HIGHLIGHTED_LANGUAGES: readonly string[] = [...HIGHLIGHTERS.keys()];

/**
 * Highlights `code` in `lang` (case-insensitive; `ts`, `typescript`, `js`, `javascript`, `json`, `sh`,
 * `bash`, `shell`, `http`) as HTML: escaped text and `<span class="tok-<kind>">` elements.
 */
export function highlight(code: string, lang: string | undefined): string {
  const sink = new TokenSink();
  const highlighter = lang === undefined ? undefined : HIGHLIGHTERS.get(lang.toLowerCase());
  if (highlighter === undefined) sink.push(undefined, code);
  else highlighter(code, sink);
  return sink.html();
}
