/**
 * The site's static assets, embedded as strings and addressed by content hash
 * (`/assets/site.<hash8>.css`): a changed file gets a new URL, so the server may cache every asset
 * for a year as `immutable` (RFC 8246) and the pages always link the current one.
 */
import { assetDigests } from './asset-digests.ts' with { type: 'macro' };
import { FAVICON_SVG } from './favicon.ts';
import { SITE_JS } from './page-script.ts';
import { SITE_CSS } from './stylesheet.ts';

export { FAVICON_SVG };

/** One asset as the server sends it. */
export interface SiteAsset {
  readonly body: Uint8Array;
  /** `Content-Type` header value. */
  readonly contentType: string;
  /** Strong `ETag` header value (RFC 9110 §8.8.3): the quoted SHA-256 of the body, hex, 32 digits. */
  readonly etag: string;
}

interface BuiltAsset extends SiteAsset {
  readonly url: string;
}

// Hashed when the code is bundled (asset-digests.ts); the bodies are encoded with the first request
// for an asset, which a start that serves a page only does not make.
const DIGESTS = assetDigests();

function builtAsset(
  stem: string,
  extension: string,
  text: string,
  contentType: string,
  hex: string,
): BuiltAsset {
  let body: Uint8Array | undefined;
  return Object.freeze({
    url: `/assets/${stem}.${hex.slice(0, 8)}.${extension}`,
    get body(): Uint8Array {
      body ??= new TextEncoder().encode(text);
      return body;
    },
    contentType,
    etag: `"${hex.slice(0, 32)}"`,
  });
}

const stylesheet = builtAsset('site', 'css', SITE_CSS, 'text/css; charset=utf-8', DIGESTS.stylesheet);
const favicon = builtAsset('favicon', 'svg', FAVICON_SVG, 'image/svg+xml', DIGESTS.favicon);
const script = builtAsset('site', 'js', SITE_JS, 'text/javascript; charset=utf-8', DIGESTS.script);

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
export const SCRIPT_INTEGRITY: string = `sha384-${DIGESTS.scriptSha384}`;

/** Every asset, keyed by its URL path. */
export const SITE_ASSETS: ReadonlyMap<string, SiteAsset> = new Map(
  [stylesheet, favicon, script].map((asset) => [asset.url, asset]),
);
