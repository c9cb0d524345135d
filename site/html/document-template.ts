/**
 * A page's HTML document rendered ahead of time, when the executable is compiled, with the one thing
 * only known at start-up left open: the site's origin (`SITE_ORIGIN`). The template is the document
 * cut at every place the origin appears; filling it joins the parts with the origin. The executable
 * thus answers its first page without rendering the layout and navigation (issue 18, item 6).
 */
import type { ContentSite, Page } from '../content/types.ts';
import { renderPageDocument } from './document.ts';

// Two origins no page mentions: the document is rendered with each, and the template is kept only
// when the parts of the first joined with the second give the second document exactly, i.e. the
// origin appears nowhere else escaped or changed (a page that does not pass is rendered at run time).
const PLACEHOLDER = 'https://origin-placeholder.invalid';
const CHECK = 'http://[::1]:65535';

/**
 * An origin that appears verbatim wherever the renderer writes it: characters that neither HTML
 * escaping nor URL joining changes (what a serialised http(s) origin is made of).
 */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.:\[\]-]+$/;

/** The template of `page`'s document, or undefined when the origin does not fill it verbatim. */
export function documentTemplate(site: ContentSite, page: Page): string[] | undefined {
  const parts = renderPageDocument(site, page, { origin: PLACEHOLDER }).split(PLACEHOLDER);
  if (parts.join(CHECK) !== renderPageDocument(site, page, { origin: CHECK })) return undefined;
  return parts;
}

/**
 * The document of a template for `origin` (serialised, as `renderPageDocument` makes it), or
 * undefined when `origin` holds a character the renderer might write otherwise: then render it.
 */
export function fillDocumentTemplate(parts: readonly string[], origin: string): string | undefined {
  let serialised: string;
  try {
    serialised = new URL(origin).origin;
  } catch {
    return undefined;
  }
  return PLAIN_ORIGIN.test(serialised) ? parts.join(serialised) : undefined;
}
