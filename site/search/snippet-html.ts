/**
 * A search snippet as HTML. The index writes snippets for Markdown readers (`site/mcp/snippet.ts`):
 * matched terms inside `**`, the text's own `\` and `*` backslash-escaped (CommonMark §2.4). Here
 * that form is read back: every character of the page text is HTML-escaped, and only the `**`
 * pairs become `<mark>` elements, so nothing in a page's text can become markup.
 */
import { escapeHtml } from '../content/escape.ts';

/** `…the **rate** limit…` to `…the <mark>rate</mark> limit…`, everything else escaped. */
export function snippetHtml(snippet: string): string {
  let html = '';
  let text = '';
  let open = false;
  for (let i = 0; i < snippet.length; i++) {
    const char = snippet[i] as string;
    if (char === '\\' && i + 1 < snippet.length) {
      text += snippet[i + 1];
      i++;
    } else if (char === '*' && snippet[i + 1] === '*') {
      html += escapeHtml(text) + (open ? '</mark>' : '<mark>');
      text = '';
      open = !open;
      i++;
    } else text += char;
  }
  html += escapeHtml(text);
  // An unbalanced marker (never written by the index) still leaves well-formed HTML.
  return open ? `${html}</mark>` : html;
}
