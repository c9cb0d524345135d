import { describe, expect, test } from 'bun:test';
import { highlight } from '../content/highlight.ts';
import {
  FAVICON_SVG,
  FAVICON_URL,
  SCRIPT_INTEGRITY,
  SCRIPT_URL,
  SITE_ASSETS,
  STYLESHEET_URL,
} from './assets.ts';
import { SITE_JS } from './page-script.ts';
import { SITE_CSS } from './stylesheet.ts';

const sha256 = (body: Uint8Array): string => new Bun.CryptoHasher('sha256').update(body).digest('hex');

describe('SITE_ASSETS', () => {
  test('holds the stylesheet, the favicon and the script under content-hashed URLs', () => {
    expect([...SITE_ASSETS.keys()]).toEqual([STYLESHEET_URL, FAVICON_URL, SCRIPT_URL]);
    expect(SCRIPT_URL).toMatch(/^\/assets\/site\.[0-9a-f]{8}\.js$/);
    expect(STYLESHEET_URL).toMatch(/^\/assets\/site\.[0-9a-f]{8}\.css$/);
    expect(FAVICON_URL).toMatch(/^\/assets\/favicon\.[0-9a-f]{8}\.svg$/);
  });

  test('names and tags each asset by the SHA-256 of its body', () => {
    for (const [url, asset] of SITE_ASSETS) {
      const hex = sha256(asset.body);
      expect(url).toContain(`.${hex.slice(0, 8)}.`);
      expect(asset.etag).toBe(`"${hex.slice(0, 32)}"`);
    }
  });

  test('serves the CSS and SVG text with their media types', () => {
    const css = SITE_ASSETS.get(STYLESHEET_URL);
    const icon = SITE_ASSETS.get(FAVICON_URL);
    expect(css?.contentType).toBe('text/css; charset=utf-8');
    expect(new TextDecoder().decode(css?.body)).toBe(SITE_CSS);
    expect(icon?.contentType).toBe('image/svg+xml');
    expect(new TextDecoder().decode(icon?.body)).toBe(FAVICON_SVG);
    expect(FAVICON_SVG).not.toContain('<script');
    expect(FAVICON_SVG).not.toContain('style');
  });
});

describe('SITE_CSS', () => {
  test('has a dark mode, a system font stack and a sidebar layout for wide screens', () => {
    expect(SITE_CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(SITE_CSS).toContain('font-family: var(--font-body)');
    expect(SITE_CSS).toContain('system-ui');
    expect(SITE_CSS).toContain('grid-template-areas: "nav main toc"');
  });

  test('colours every token kind the highlighter emits', () => {
    const sample =
      highlight('const a: T = "s" + 1; // c\n', 'ts') +
      highlight('{"k": true}', 'json') +
      highlight('echo $HOME', 'sh');
    const kinds = new Set([...sample.matchAll(/class="tok-([a-z]+)"/g)].map((match) => match[1]));
    expect(kinds.size).toBeGreaterThanOrEqual(8);
    for (const kind of kinds) expect(SITE_CSS).toContain(`.tok-${kind} {`);
  });

  test('styles the classes the renderers use', () => {
    for (const selector of [
      '.skip-link',
      '.sidebar',
      '.toc',
      '.pager',
      '.anchor',
      '.table-scroll',
      '.align-right',
      '.raw-html',
      'pre.code',
    ]) {
      expect(SITE_CSS).toContain(selector);
    }
  });
});

describe('the site script', () => {
  test('is served as JavaScript and its integrity value is the SHA-384 of those bytes', () => {
    const script = SITE_ASSETS.get(SCRIPT_URL);
    expect(script?.contentType).toBe('text/javascript; charset=utf-8');
    expect(new TextDecoder().decode(script?.body)).toBe(SITE_JS);
    const digest = new Bun.CryptoHasher('sha384').update(script!.body).digest('base64');
    expect(SCRIPT_INTEGRITY).toBe(`sha384-${digest}`);
  });

  test('writes no HTML and evaluates no text (safe under a strict CSP and Trusted Types)', () => {
    for (const sink of [
      'innerHTML',
      'outerHTML',
      'insertAdjacentHTML',
      'document.write',
      'eval(',
      'Function(',
    ]) {
      expect(SITE_JS).not.toContain(sink);
    }
    expect(SITE_JS).toContain('navigator.clipboard.writeText');
  });
});

describe('asset digests (computed when bundled)', () => {
  test('the script integrity value is the SHA-384 of the script served', () => {
    const script = SITE_ASSETS.get(SCRIPT_URL);
    expect(script).toBeDefined();
    const sha384 = new Bun.CryptoHasher('sha384').update(script!.body).digest('base64');
    expect(SCRIPT_INTEGRITY).toBe(`sha384-${sha384}`);
  });

  test('a body is the same bytes each time it is read, and matches its ETag', () => {
    for (const asset of SITE_ASSETS.values()) {
      expect(asset.body).toBe(asset.body);
      expect(asset.etag).toBe(`"${sha256(asset.body).slice(0, 32)}"`);
    }
  });

  test('the digests are the SHA-256 of each text, different texts different digests', async () => {
    const { assetDigests } = await import('./asset-digests.ts');
    const digests = assetDigests();
    expect(digests.stylesheet).toBe(sha256(new TextEncoder().encode(SITE_CSS)));
    expect(digests.script).toBe(sha256(new TextEncoder().encode(SITE_JS)));
    expect(digests.favicon).toBe(sha256(new TextEncoder().encode(FAVICON_SVG)));
    expect(digests.stylesheet).not.toBe(digests.script);
  });
});
