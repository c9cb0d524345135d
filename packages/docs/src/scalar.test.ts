import { describe, expect, test } from 'bun:test';
import { docsPage } from './docs-page.ts';
import { SCALAR_UI, scalarHtml } from './scalar.ts';

function dataOf(html: string): unknown {
  const match = html.match(/<script type="application\/json" id="charter-docs-config">([^<]*)<\/script>/);
  if (match?.[1] === undefined) throw new Error('no data block');
  return JSON.parse(match[1]);
}

describe('scalarHtml', () => {
  test('is the HTML of the scalar docs page', () => {
    const options = { specUrl: '/openapi.json', title: 'Todo API' };
    expect(scalarHtml(options)).toBe(docsPage('scalar', options).html);
  });

  test('passes the spec URL as url, system fonts by default, and merges the configuration', () => {
    expect(dataOf(scalarHtml({ specUrl: '/openapi.json' }))).toEqual({
      withDefaultFonts: false,
      url: '/openapi.json',
    });
    const html = scalarHtml({
      specUrl: '/v2/openapi.json',
      configuration: { theme: 'purple', hideModels: true, withDefaultFonts: true },
    });
    expect(dataOf(html)).toEqual({
      withDefaultFonts: true,
      theme: 'purple',
      hideModels: true,
      url: '/v2/openapi.json',
    });
  });

  test('runs the zod prelude before its script and mounts on #charter-docs', () => {
    const html = scalarHtml({ specUrl: '/openapi.json' });
    const prelude = html.indexOf(`<script>${SCALAR_UI.preludeScript?.source}</script>`);
    const asset = html.indexOf('<script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/');
    const init = html.indexOf(`<script>${SCALAR_UI.initScript.source}</script>`);
    expect(prelude).toBeGreaterThan(-1);
    expect(prelude).toBeLessThan(asset);
    expect(asset).toBeLessThan(init);
    expect(SCALAR_UI.initScript.source).toContain("Scalar.createApiReference('#charter-docs'");
  });

  test('refuses configuration keys that would replace the document', () => {
    for (const key of ['url', 'content', 'spec', 'sources']) {
      expect(() => scalarHtml({ specUrl: '/openapi.json', configuration: { [key]: 'x' } })).toThrow(
        `configuration.${key} is set by the page itself`,
      );
    }
  });

  test('needs inline styles but no blob worker', () => {
    expect(SCALAR_UI.needs).toEqual({ allowInlineStyles: true, allowBlobWorkers: false });
    const { policy } = docsPage('scalar', { specUrl: '/openapi.json' });
    expect(policy.allowInlineStyles).toBe(true);
    expect(policy.allowBlobWorkers).toBe(false);
  });
});
