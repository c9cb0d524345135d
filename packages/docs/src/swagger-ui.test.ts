import { describe, expect, test } from 'bun:test';
import { docsPage } from './docs-page.ts';
import { SWAGGER_UI, swaggerUiHtml } from './swagger-ui.ts';

function dataOf(html: string): unknown {
  const match = html.match(/<script type="application\/json" id="charter-docs-config">([^<]*)<\/script>/);
  if (match?.[1] === undefined) throw new Error('no data block');
  return JSON.parse(match[1]);
}

describe('swaggerUiHtml', () => {
  test('is the HTML of the swagger-ui docs page', () => {
    const options = { specUrl: '/openapi.json', title: 'Todo API' };
    expect(swaggerUiHtml(options)).toBe(docsPage('swagger-ui', options).html);
  });

  test('passes the spec URL as url with the standalone layout and no validator badge', () => {
    expect(dataOf(swaggerUiHtml({ specUrl: '/openapi.json' }))).toEqual({
      layout: 'StandaloneLayout',
      deepLinking: true,
      validatorUrl: null,
      url: '/openapi.json',
    });
  });

  test('merges the configuration into the init options', () => {
    const html = swaggerUiHtml({
      specUrl: '/openapi.json',
      configuration: { layout: 'BaseLayout', docExpansion: 'none', tryItOutEnabled: true },
    });
    expect(dataOf(html)).toEqual({
      layout: 'BaseLayout',
      deepLinking: true,
      validatorUrl: null,
      docExpansion: 'none',
      tryItOutEnabled: true,
      url: '/openapi.json',
    });
  });

  test('loads the stylesheet in the head and the bundle before the preset, then the init script', () => {
    const html = swaggerUiHtml({ specUrl: '/openapi.json' });
    const css = html.indexOf('swagger-ui-dist@5.35.0/swagger-ui.css');
    const head = html.indexOf('</head>');
    const bundle = html.indexOf('swagger-ui-dist@5.35.0/swagger-ui-bundle.js');
    const preset = html.indexOf('swagger-ui-dist@5.35.0/swagger-ui-standalone-preset.js');
    const init = html.indexOf(SWAGGER_UI.initScript.source);
    expect(css).toBeGreaterThan(-1);
    expect(css).toBeLessThan(head);
    expect(head).toBeLessThan(bundle);
    expect(bundle).toBeLessThan(preset);
    expect(preset).toBeLessThan(init);
    expect(SWAGGER_UI.initScript.source).toContain("config.dom_id = '#charter-docs';");
  });

  test('refuses configuration keys that would replace the document or the mount point', () => {
    for (const key of ['url', 'urls', 'spec', 'dom_id', 'domNode', 'presets', 'plugins']) {
      expect(() => swaggerUiHtml({ specUrl: '/openapi.json', configuration: { [key]: 'x' } })).toThrow(
        `configuration.${key} is set by the page itself`,
      );
    }
  });

  test('takes replacement assets for each of its three slots', () => {
    const integrity = 'sha384-OLBgp1GsljhM2TJ+sbHjaiH9txEUvgdDTAzHv2P24donTt6/529l+9Ua0vFImLlb';
    const html = swaggerUiHtml({
      specUrl: '/openapi.json',
      assets: {
        script: { url: '/s/bundle.js', integrity },
        preset: { url: '/s/preset.js', integrity },
        stylesheet: { url: '/s/ui.css', integrity },
      },
    });
    expect(html).not.toContain('cdn.jsdelivr.net');
    for (const url of ['/s/bundle.js', '/s/preset.js', '/s/ui.css']) expect(html).toContain(`"${url}"`);
  });

  test('needs inline styles (its top-bar logo) but no blob worker', () => {
    expect(SWAGGER_UI.needs).toEqual({ allowInlineStyles: true, allowBlobWorkers: false });
  });
});
