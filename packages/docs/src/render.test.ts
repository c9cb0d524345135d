import { describe, expect, test } from 'bun:test';
import { DEFAULT_DOCS_ASSETS, DOCS_ASSET_SOURCES, DOCS_UIS, type DocsUi } from './assets.ts';
import { DOCS_UI_DEFINITIONS, docsPage } from './docs-page.ts';
import { specUrlOrigin } from './render.ts';

const NONCE = 'cmFuZG9tLW5vbmNlLTEyOC1iaXQ';
const HASH = 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb';

interface ScriptElement {
  attributes: string;
  body: string;
}

/** The `<script>` elements of a page, in order. */
function scriptsOf(html: string): ScriptElement[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
    attributes: m[1] ?? '',
    body: m[2] ?? '',
  }));
}

/** The JSON data block the init script reads. */
function dataOf(html: string): unknown {
  const block = scriptsOf(html).find((s) => s.attributes.includes('type="application/json"'));
  if (block === undefined) throw new Error('no data block');
  return JSON.parse(block.body);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `sha256-${Buffer.from(digest).toString('base64')}`;
}

describe('docsPage (every UI)', () => {
  for (const ui of DOCS_UIS) {
    test(`${ui}: loads each of its assets with its integrity and crossorigin="anonymous"`, () => {
      const { html } = docsPage(ui, { specUrl: '/openapi.json' });
      const sources = DOCS_ASSET_SOURCES.filter((source) => source.ui === ui);
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        const asset = DEFAULT_DOCS_ASSETS[ui][source.slot];
        const tag =
          source.slot === 'stylesheet'
            ? `<link rel="stylesheet" href="${asset?.url}" integrity="${asset?.integrity}" crossorigin="anonymous">`
            : `<script src="${asset?.url}" integrity="${asset?.integrity}" crossorigin="anonymous"></script>`;
        expect(html).toContain(tag);
      }
      const external = scriptsOf(html).filter((s) => s.attributes.includes(' src='));
      expect(external).toHaveLength(sources.filter((s) => s.slot !== 'stylesheet').length);
      for (const script of external) expect(script.attributes).toContain('crossorigin="anonymous"');
    });

    test(`${ui}: writes crossorigin="use-credentials" on every asset when asked`, () => {
      const { html } = docsPage(ui, { specUrl: '/openapi.json', crossOrigin: 'use-credentials' });
      const tags = html.match(/<(script src|link rel="stylesheet")[^>]*>/g) ?? [];
      expect(tags.length).toBeGreaterThan(0);
      for (const tag of tags) expect(tag).toContain('crossorigin="use-credentials"');
      expect(html).not.toContain('crossorigin="anonymous"');
    });

    test(`${ui}: lists the sha256 of each inline script, recomputed from the page`, async () => {
      const page = docsPage(ui, { specUrl: '/openapi.json' });
      const inline = scriptsOf(page.html).filter((s) => s.attributes === '');
      expect(inline.length).toBeGreaterThan(0);
      const hashes = await Promise.all(inline.map((s) => sha256(s.body)));
      expect(page.scriptHashes).toEqual(hashes);
      expect(page.policy.scriptHashes).toEqual(hashes);
      expect(page.policy.scriptNonce).toBeUndefined();
      const definition = DOCS_UI_DEFINITIONS[ui];
      expect(definition.initScript.hash).toBe(await sha256(definition.initScript.source));
      if (definition.preludeScript !== undefined) {
        expect(definition.preludeScript.hash).toBe(await sha256(definition.preludeScript.source));
      }
    });

    test(`${ui}: puts the nonce on every inline script and none in the data block`, () => {
      const page = docsPage(ui, { specUrl: '/openapi.json', scriptNonce: NONCE });
      const scripts = scriptsOf(page.html);
      for (const script of scripts) {
        if (script.attributes.includes(' src=') || script.attributes.includes('application/json')) {
          expect(script.attributes).not.toContain('nonce');
        } else expect(script.attributes).toBe(` nonce="${NONCE}"`);
      }
      expect(page.policy.scriptNonce).toBe(NONCE);
      expect(page.policy.scriptHashes).toBeUndefined();
    });

    test(`${ui}: escapes the title and keeps a hostile configuration inside the JSON`, () => {
      const hostile = '</script><script>alert(1)</script><!--\u2028';
      const { html } = docsPage(ui, {
        specUrl: '/openapi.json',
        title: '<img src=x onerror=alert(1)> & "API"',
        configuration: { note: hostile },
      });
      expect(html).toContain('<title>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;API&quot;</title>');
      expect(html).not.toContain('alert(1)</script>');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<!--');
      expect(html).not.toContain('\u2028');
      // The scripts are exactly the page's own: the configuration opened none.
      const expected = DOCS_ASSET_SOURCES.filter((s) => s.ui === ui && s.slot !== 'stylesheet').length;
      const own = 1 + expected + (DOCS_UI_DEFINITIONS[ui].preludeScript === undefined ? 1 : 2);
      expect(scriptsOf(html)).toHaveLength(own);
      expect(JSON.stringify(dataOf(html))).toContain(JSON.stringify(hostile));
    });

    test(`${ui}: uses the default title and an empty icon`, () => {
      const { html } = docsPage(ui, { specUrl: '/openapi.json' });
      expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
      expect(html).toContain('<title>API reference</title>');
      expect(html).toContain('<link rel="icon" href="data:,">');
      expect(html).toContain('<div id="charter-docs"></div>');
    });

    test(`${ui}: lists the origins of its assets and of an absolute spec URL in the policy`, () => {
      const page = docsPage(ui, { specUrl: 'https://api.example.com/v1/openapi.json' });
      expect(page.policy.assetOrigins).toEqual(['https://cdn.jsdelivr.net']);
      expect(page.policy.connectOrigins).toEqual(['https://api.example.com']);
      const local = docsPage(ui, {
        specUrl: '/openapi.json',
        assets: { script: { url: '/static/ui.js', integrity: HASH } },
      });
      expect(local.policy.connectOrigins).toEqual([]);
      expect(local.html).toContain(`<script src="/static/ui.js" integrity="${HASH}"`);
    });

    test(`${ui}: refuses unknown options, a missing spec URL and a non-JSON configuration`, () => {
      expect(() => docsPage(ui, { specUrl: '/o.json', theme: 'dark' } as never)).toThrow(
        `${ui} docs page has no option "theme"`,
      );
      expect(() => docsPage(ui, {} as never)).toThrow('specUrl is required');
      expect(() => docsPage(ui, { specUrl: '/o.json', configuration: { f: () => 1 } as never })).toThrow(
        'configuration.f must be JSON',
      );
      expect(() => docsPage(ui, { specUrl: '/o.json', title: 1 as never })).toThrow('title must be a string');
      expect(() => docsPage(ui, { specUrl: '/o.json', scriptNonce: 'x' })).toThrow('scriptNonce must carry');
      expect(() => docsPage(ui, { specUrl: '/o.json', crossOrigin: 'none' as never })).toThrow(
        'crossOrigin must be',
      );
    });
  }

  test('refuses an unknown UI', () => {
    expect(() => docsPage('rapidoc' as DocsUi, { specUrl: '/o.json' })).toThrow(
      'ui must be "scalar", "swagger-ui" or "redoc", got rapidoc',
    );
  });
});

describe('specUrlOrigin', () => {
  test('accepts relative references and http(s) URLs', () => {
    expect(specUrlOrigin('/openapi.json')).toBeUndefined();
    expect(specUrlOrigin('openapi.json')).toBeUndefined();
    expect(specUrlOrigin('../v2/openapi.json?x=1#y')).toBeUndefined();
    expect(specUrlOrigin('https://api.example.com/openapi.json')).toBe('https://api.example.com');
    expect(specUrlOrigin('HTTP://API.example.com:8080/o.json')).toBe('http://api.example.com:8080');
  });

  test('refuses other schemes, network paths, credentials, control characters and backslashes', () => {
    expect(() => specUrlOrigin('javascript:alert(1)')).toThrow('got a javascript: URL');
    expect(() => specUrlOrigin('JavaScript:alert(1)')).toThrow('got a javascript: URL');
    expect(() => specUrlOrigin('data:application/json,{}')).toThrow('got a data: URL');
    expect(() => specUrlOrigin('//evil.example/openapi.json')).toThrow('network-path reference');
    expect(() => specUrlOrigin('/\\evil.example/openapi.json')).toThrow('backslashes');
    expect(() => specUrlOrigin('java\tscript:alert(1)')).toThrow('control characters');
    expect(() => specUrlOrigin('/openapi.json\n')).toThrow('control characters');
    expect(() => specUrlOrigin('https://u:p@api.example.com/o.json')).toThrow('credentials');
    expect(() => specUrlOrigin('https://')).toThrow('not a valid URL');
    expect(() => specUrlOrigin('')).toThrow('specUrl is required');
    expect(() => specUrlOrigin(undefined)).toThrow('specUrl is required');
  });
});
