/**
 * The five browser assets of the docs UIs, pinned to exact versions on jsDelivr with Subresource
 * Integrity hashes (W3C SRI §3.1), and the checks on assets a caller supplies instead.
 */
import { decodeBase64 } from '@charter/core';
import { hasControlCharacter } from './html.ts';

/** The docs UIs: Scalar API Reference, Swagger UI and Redoc. */
export type DocsUi = 'scalar' | 'swagger-ui' | 'redoc';

/** The supported UIs, in a stable order. */
export const DOCS_UIS: readonly DocsUi[] = Object.freeze(['scalar', 'swagger-ui', 'redoc']);

/** One script or stylesheet: where it is and the SRI hash it must match. */
export interface DocsAsset {
  /** `https://` URL, `http://` on a loopback host only, or a same-origin path starting with `/`. */
  readonly url: string;
  /** SRI metadata: one or more `sha256-`, `sha384-` or `sha512-` base64 digests, space-separated. */
  readonly integrity: string;
}

/** The `crossorigin` attribute of every script and stylesheet (HTML §2.5.4 CORS settings attributes). */
export type DocsCrossOrigin = 'anonymous' | 'use-credentials';

/**
 * Assets of one UI; each one given replaces the default (URL and integrity together). Swagger UI
 * uses all three; Scalar and Redoc use `script` only.
 */
export interface DocsAssets {
  /** The UI's script: `swagger-ui-bundle.js`, `bundles/redoc.standalone.js` or `dist/browser/standalone.js`. */
  script?: DocsAsset;
  /** Swagger UI only: `swagger-ui-standalone-preset.js`, the second script of its group. */
  preset?: DocsAsset;
  /** Swagger UI only: `swagger-ui.css`. */
  stylesheet?: DocsAsset;
}

/** The asset slots of Swagger UI. */
export type SwaggerUiAssets = DocsAssets;

/** The asset slot of Redoc. */
export type RedocAssets = Pick<DocsAssets, 'script'>;

/** The asset slot of Scalar API Reference. */
export type ScalarAssets = Pick<DocsAssets, 'script'>;

/** Where a default asset comes from: registry package, exact version and file inside the package. */
export interface DocsAssetSource {
  readonly ui: DocsUi;
  readonly slot: keyof DocsAssets;
  readonly packageName: string;
  readonly version: string;
  readonly file: string;
  readonly integrity: string;
}

/** The CDN the default assets are loaded from (jsDelivr serves npm files byte for byte). */
export const DOCS_ASSET_CDN = 'https://cdn.jsdelivr.net/npm';

/**
 * The five default assets. The versions are the exact devDependencies of this repository and the
 * hashes are those files' sha384 digests; a unit test recomputes both from node_modules.
 */
export const DOCS_ASSET_SOURCES: readonly DocsAssetSource[] = Object.freeze(
  [
    {
      ui: 'swagger-ui',
      slot: 'script',
      packageName: 'swagger-ui-dist',
      version: '5.35.0',
      file: 'swagger-ui-bundle.js',
      integrity: 'sha384-gjRm0bEPMeTmMh5jT2cHccIwCUZSTd8YC+j0d0sXw0MdGEfScduGpSyF3ZSSLkX9',
    },
    {
      ui: 'swagger-ui',
      slot: 'preset',
      packageName: 'swagger-ui-dist',
      version: '5.35.0',
      file: 'swagger-ui-standalone-preset.js',
      integrity: 'sha384-My2aDM4r2Mbm3ybHcubKm9O9U8FEjvF/O5nGvE9YK5dzqOTbWEKa79RPJ1krdMaF',
    },
    {
      ui: 'swagger-ui',
      slot: 'stylesheet',
      packageName: 'swagger-ui-dist',
      version: '5.35.0',
      file: 'swagger-ui.css',
      integrity: 'sha384-WlYgdmXYOOBWL5apwjDEZwN+U3HmXSSu5R6V5aGxEcf7z+KuRNwBhoxKVN1i3D5I',
    },
    {
      ui: 'redoc',
      slot: 'script',
      packageName: 'redoc',
      version: '2.5.4',
      file: 'bundles/redoc.standalone.js',
      integrity: 'sha384-w447zOpYfw/1Tv/5AK9NfHTlQIqE3RVR6KY62jCyy9zNDgO64cMwGGP1Fj0zJVf5',
    },
    {
      ui: 'scalar',
      slot: 'script',
      packageName: '@scalar/api-reference',
      version: '1.72.1',
      file: 'dist/browser/standalone.js',
      integrity: 'sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK',
    },
  ].map((source) => Object.freeze(source as DocsAssetSource)),
);

/** The jsDelivr URL of a default asset: `https://cdn.jsdelivr.net/npm/<package>@<version>/<file>`. */
export function docsAssetCdnUrl(source: DocsAssetSource): string {
  return `${DOCS_ASSET_CDN}/${source.packageName}@${source.version}/${source.file}`;
}

function defaultsOf(ui: DocsUi): Readonly<DocsAssets> {
  const assets: DocsAssets = {};
  for (const source of DOCS_ASSET_SOURCES) {
    if (source.ui === ui) {
      assets[source.slot] = Object.freeze({ url: docsAssetCdnUrl(source), integrity: source.integrity });
    }
  }
  return Object.freeze(assets);
}

/** The default assets of each UI (jsDelivr URLs and their sha384 hashes). */
export const DEFAULT_DOCS_ASSETS: Readonly<Record<DocsUi, Readonly<DocsAssets>>> = Object.freeze({
  scalar: defaultsOf('scalar'),
  'swagger-ui': defaultsOf('swagger-ui'),
  redoc: defaultsOf('redoc'),
});

/** The slots each UI loads, in the order the page loads them. */
export const DOCS_ASSET_SLOTS: Readonly<Record<DocsUi, readonly (keyof DocsAssets)[]>> = Object.freeze({
  scalar: Object.freeze(['script'] as const),
  'swagger-ui': Object.freeze(['stylesheet', 'script', 'preset'] as const),
  redoc: Object.freeze(['script'] as const),
});

/** Loopback hosts on which plain `http:` assets are accepted (local development, tests). */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** SRI §3.2: the digest length, in bytes, of each hash algorithm the browsers support. */
const DIGEST_BYTES: Readonly<Record<string, number>> = { sha256: 32, sha384: 48, sha512: 64 };

/** True for canonical padded standard base64 (RFC 4648 §4) of exactly `bytes` bytes. */
function isBase64Of(text: string, bytes: number): boolean {
  // The core decoder is strict: one spelling per byte string (padding exact, trailing bits zero).
  return decodeBase64(text, 'base64', { padded: true })?.length === bytes;
}

/**
 * Checks one SRI hash token, `<alg>-<base64 digest>` with alg sha256, sha384 or sha512 (SRI §3.1;
 * the `?options` suffix is refused). Returns an error message or undefined.
 */
export function hashSourceProblem(token: string): string | undefined {
  const dash = token.indexOf('-');
  const alg = dash === -1 ? '' : token.slice(0, dash);
  const bytes = DIGEST_BYTES[alg];
  if (bytes === undefined) return `must start with sha256-, sha384- or sha512-, got ${JSON.stringify(token)}`;
  if (!isBase64Of(token.slice(dash + 1), bytes)) {
    return `must be ${alg}- followed by the base64 of a ${bytes}-byte digest, got ${JSON.stringify(token)}`;
  }
  return undefined;
}

/** Splits on ASCII whitespace (WHATWG Infra), the separator between SRI metadata tokens. */
function splitTokens(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (const char of text) {
    if (char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r') {
      if (current !== '') tokens.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '') tokens.push(current);
  return tokens;
}

/**
 * The origin an asset URL is loaded from, or undefined for a same-origin path. Throws a TypeError
 * naming `option` for anything else: only `https:`, `http:` on a loopback host, or a path starting
 * with a single `/` (a `//host` or `/\host` path would leave the origin).
 */
export function assetUrlOrigin(url: unknown, option: string): string | undefined {
  if (typeof url !== 'string' || url === '') throw new TypeError(`${option} must be a non-empty URL string`);
  if (hasControlCharacter(url) || url.includes(' ') || url.includes('\\')) {
    throw new TypeError(`${option} must not contain spaces, backslashes or control characters`);
  }
  if (url.startsWith('/')) {
    if (url.startsWith('//')) {
      throw new TypeError(`${option} must be https:// or a path starting with a single "/", got ${url}`);
    }
    return undefined;
  }
  const parsed = URL.parse(url);
  if (parsed === null) throw new TypeError(`${option} is not a URL: ${url}`);
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError(`${option} must not carry credentials`);
  }
  if (parsed.protocol === 'https:') return parsed.origin;
  if (parsed.protocol === 'http:' && LOOPBACK_HOSTS.includes(parsed.hostname)) return parsed.origin;
  throw new TypeError(
    `${option} must be https:// (http:// only on localhost, 127.0.0.1 or [::1]) or a same-origin path, got ${url}`,
  );
}

/** Validates one asset and returns a frozen copy with its integrity tokens normalised to single spaces. */
export function resolveDocsAsset(asset: unknown, option: string): DocsAsset {
  if (typeof asset !== 'object' || asset === null) {
    throw new TypeError(`${option} must be an object { url, integrity }`);
  }
  const { url, integrity } = asset as Record<string, unknown>;
  assetUrlOrigin(url, `${option}.url`);
  if (typeof integrity !== 'string' || integrity.trim() === '') {
    // SRI is what makes a CDN copy safe to run: an asset without it is refused, never loaded unchecked.
    throw new TypeError(`${option}.integrity is required (an SRI hash such as sha384-...)`);
  }
  const tokens = splitTokens(integrity);
  for (const token of tokens) {
    const problem = hashSourceProblem(token);
    if (problem !== undefined) throw new TypeError(`${option}.integrity ${problem}`);
  }
  return Object.freeze({ url: url as string, integrity: tokens.join(' ') });
}

/**
 * The assets `ui` loads: each slot the caller gives (validated) or its default. A slot the UI does
 * not use is refused, so a misplaced override does not go unnoticed.
 */
export function resolveDocsAssets(ui: DocsUi, assets: unknown, option = 'assets'): Readonly<DocsAssets> {
  if (assets === undefined) return DEFAULT_DOCS_ASSETS[ui];
  if (typeof assets !== 'object' || assets === null || Array.isArray(assets)) {
    throw new TypeError(`${option} must be an object`);
  }
  const slots = DOCS_ASSET_SLOTS[ui];
  const given = assets as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(slots as readonly string[]).includes(key)) {
      throw new TypeError(`${option}.${key} is not an asset of ${ui}; it uses ${slots.join(', ')}`);
    }
  }
  const resolved: DocsAssets = {};
  for (const slot of slots) {
    const value = given[slot];
    resolved[slot] =
      value === undefined ? DEFAULT_DOCS_ASSETS[ui][slot] : resolveDocsAsset(value, `${option}.${slot}`);
  }
  return Object.freeze(resolved);
}

/** Validates the `crossOrigin` option (default `anonymous`). */
export function resolveCrossOrigin(value: unknown, option = 'crossOrigin'): DocsCrossOrigin {
  if (value === undefined) return 'anonymous';
  if (value === 'anonymous' || value === 'use-credentials') return value;
  throw new TypeError(`${option} must be "anonymous" or "use-credentials", got ${String(value)}`);
}
