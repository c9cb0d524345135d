/**
 * Escaping text for HTML (HTML Living Standard §13.1.2 "Text" and §13.1.2.3 "Attribute values"),
 * for handlers and pages that build markup by hand: the one function the docs pages, the site and
 * user code share, so none of them keeps its own copy of the table.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes `& < > " '`, so the text is inert in element content and in a quoted attribute value
 * (single or double quotes). Not for unquoted attributes, URLs (check the scheme too), scripts or
 * styles: each of those contexts has its own rules.
 */
export function escapeHtml(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const replacement = HTML_ESCAPES[text.charAt(i)];
    if (replacement === undefined) continue;
    out += text.slice(last, i) + replacement;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}
