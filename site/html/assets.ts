/**
 * The site's static assets, embedded as strings and addressed by content hash
 * (`/assets/site.<hash8>.css`): a changed file gets a new URL, so the server may cache every asset
 * for a year as `immutable` (RFC 8246) and the pages always link the current one.
 */
import { SITE_JS } from './page-script.ts';
import { SITE_CSS } from './stylesheet.ts';

/** One asset as the server sends it. */
export interface SiteAsset {
  readonly body: Uint8Array;
  /** `Content-Type` header value. */
  readonly contentType: string;
  /** Strong `ETag` header value (RFC 9110 §8.8.3): the quoted SHA-256 of the body, hex, 32 digits. */
  readonly etag: string;
}

/** The favicon: a "C" on the accent colour, drawn with a path (no fonts, no scripts, no styles). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2f5bd3"/>
<path d="M21.1 9.9A8 8 0 1 0 21.1 22.1" fill="none" stroke="#ffffff" stroke-width="3.4" stroke-linecap="round"/>
</svg>
`;

interface BuiltAsset extends SiteAsset {
  readonly url: string;
}

function buildAsset(stem: string, extension: string, text: string, contentType: string): BuiltAsset {
  const body = new TextEncoder().encode(text);
  const hex = new Bun.CryptoHasher('sha256').update(body).digest('hex');
  return {
    url: `/assets/${stem}.${hex.slice(0, 8)}.${extension}`,
    body,
    contentType,
    etag: `"${hex.slice(0, 32)}"`,
  };
}

const stylesheet = buildAsset('site', 'css', SITE_CSS, 'text/css; charset=utf-8');
const favicon = buildAsset('favicon', 'svg', FAVICON_SVG, 'image/svg+xml');
const script = buildAsset('site', 'js', SITE_JS, 'text/javascript; charset=utf-8');

/** URL of the stylesheet: `/assets/site.<hash8>.css`. */
export const STYLESHEET_URL: string = stylesheet.url;

/** URL of the favicon: `/assets/favicon.<hash8>.svg`. */
export const FAVICON_URL: string = favicon.url;

/** URL of the pages' script: `/assets/site.<hash8>.js`. */
export const SCRIPT_URL: string = script.url;

/**
 * The script's Subresource Integrity value (W3C SRI §3.1, `sha384-<base64>`): the page refuses a
 * script whose bytes differ from the ones it was built with.
 */
export const SCRIPT_INTEGRITY: string = `sha384-${new Bun.CryptoHasher('sha384').update(script.body).digest('base64')}`;

/** Every asset, keyed by its URL path. */
export const SITE_ASSETS: ReadonlyMap<string, SiteAsset> = new Map(
  [stylesheet, favicon, script].map(({ url, body, contentType, etag }) => [
    url,
    Object.freeze({ body, contentType, etag }),
  ]),
);
