import { describe, expect, test } from 'bun:test';
import { docsPage } from './docs-page.ts';
import { REDOC_UI, redocHtml } from './redoc.ts';

function dataOf(html: string): unknown {
  const match = html.match(/<script type="application\/json" id="charter-docs-config">([^<]*)<\/script>/);
  if (match?.[1] === undefined) throw new Error('no data block');
  return JSON.parse(match[1]);
}

describe('redocHtml', () => {
  test('is the HTML of the redoc docs page', () => {
    const options = { specUrl: '/openapi.json', title: 'Todo API' };
    expect(redocHtml(options)).toBe(docsPage('redoc', options).html);
  });

  test('forwards the configuration verbatim next to the spec URL', () => {
    const configuration = {
      hideDownloadButton: true,
      theme: { colors: { primary: { main: '#32329f' } } },
      url: 'kept as given',
      nested: [1, 'two', null, { three: false }],
    };
    expect(dataOf(redocHtml({ specUrl: '/openapi.json', configuration }))).toEqual({
      specUrl: '/openapi.json',
      configuration,
    });
    expect(dataOf(redocHtml({ specUrl: '/openapi.json' }))).toEqual({
      specUrl: '/openapi.json',
      configuration: {},
    });
  });

  test('starts Redoc with the spec URL, the configuration and the mount element', () => {
    expect(REDOC_UI.initScript.source).toContain(
      "Redoc.init(data.specUrl, data.configuration, document.getElementById('charter-docs'));",
    );
    const html = redocHtml({ specUrl: '/openapi.json' });
    expect(html.indexOf('redoc@2.5.4/bundles/redoc.standalone.js')).toBeLessThan(
      html.indexOf(REDOC_UI.initScript.source),
    );
  });

  test('needs inline styles and blob workers (its search runs in a worker made from a blob)', () => {
    expect(REDOC_UI.needs).toEqual({ allowInlineStyles: true, allowBlobWorkers: true });
    const { policy } = docsPage('redoc', { specUrl: '/openapi.json' });
    expect(policy.allowBlobWorkers).toBe(true);
  });

  test('refuses a stylesheet or preset asset, which Redoc does not load', () => {
    const asset = { url: '/r.css', integrity: 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' };
    expect(() => redocHtml({ specUrl: '/openapi.json', assets: { stylesheet: asset } as never })).toThrow(
      'assets.stylesheet is not an asset of redoc',
    );
  });
});
