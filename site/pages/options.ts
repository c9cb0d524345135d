/** Options of `pageRoutes` and `markdownRoutes`, validated once when the routes are built. */
import type { ContentSite } from '../content/types.ts';

/** Options of `pageRoutes` and `markdownRoutes`. */
export interface PagesOptions {
  /** The loaded content (`buildContent(...)`). Required. */
  content: ContentSite;
  /**
   * The site's public origin (`SITE_ORIGIN`), serialised: scheme, host and port only, no trailing
   * slash (`https://charter.dev`). Absolute URLs in `Link` headers and Markdown links use it. Required.
   */
  origin: string;
}

/** Validated `PagesOptions`. */
export interface ResolvedPagesOptions {
  readonly content: ContentSite;
  readonly origin: string;
}

/** Validates `PagesOptions`, throwing a TypeError that names the bad option. */
export function resolvePagesOptions(options: PagesOptions, caller: string): ResolvedPagesOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${caller}: options must be an object with content and origin`);
  }
  const { content, origin } = options;
  if (
    typeof content !== 'object' ||
    content === null ||
    !Array.isArray(content.pages) ||
    typeof content.byPath !== 'function'
  ) {
    throw new TypeError(`${caller}: option "content" must be a ContentSite (from buildContent)`);
  }
  if (typeof origin !== 'string') {
    throw new TypeError(`${caller}: option "origin" must be a string such as "https://charter.dev"`);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  // The serialised form (WHATWG URL §4.5 "ASCII serialization of an origin") is what we concatenate
  // paths to, so anything else (a path, a trailing slash, credentials) would produce wrong URLs.
  if (
    parsed === undefined ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.origin !== origin
  ) {
    throw new TypeError(
      `${caller}: option "origin" must be a serialised http(s) origin without a path or trailing slash ` +
        `(such as "https://charter.dev"), got ${JSON.stringify(origin)}`,
    );
  }
  return Object.freeze({ content, origin });
}

/**
 * An absolute URL for a site path given decoded (a page path, or a wildcard value as the router
 * decoded it): each segment percent-encoded, parentheses too, so the URL is inert inside `<...>` of
 * a `Link` header (RFC 8288 §3) and inside `(...)` of a Markdown link.
 */
export function absoluteUrl(origin: string, path: string): string {
  const encoded = path
    .split('/')
    .map((segment) => encodeSegment(segment).replaceAll('(', '%28').replaceAll(')', '%29'))
    .join('/');
  return `${origin}${encoded}`;
}

function encodeSegment(segment: string): string {
  try {
    return encodeURIComponent(segment);
  } catch {
    // A lone surrogate cannot be UTF-8 encoded (the router refuses them, but stay total).
    return encodeURIComponent(segment.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
}
