import { describe, expect, test } from 'bun:test';
import { DOCS_UI_DEFINITIONS, docsPage, resolveDocsUi } from './docs-page.ts';
import { redocHtml } from './redoc.ts';
import { scalarHtml } from './scalar.ts';
import { swaggerUiHtml } from './swagger-ui.ts';

describe('resolveDocsUi', () => {
  test('defaults to scalar and accepts the three UIs', () => {
    expect(resolveDocsUi(undefined)).toBe('scalar');
    for (const ui of ['scalar', 'swagger-ui', 'redoc'] as const) expect(resolveDocsUi(ui)).toBe(ui);
  });

  test('refuses other names, including inherited property names', () => {
    expect(() => resolveDocsUi('swagger')).toThrow(
      'ui must be "scalar", "swagger-ui" or "redoc", got swagger',
    );
    expect(() => resolveDocsUi('toString')).toThrow(TypeError);
    expect(() => resolveDocsUi(1, 'mountDocs ui')).toThrow('mountDocs ui must be');
  });
});

describe('docsPage', () => {
  test('renders the same HTML as the per-UI function', () => {
    const options = { specUrl: '/openapi.json', title: 'T' };
    expect(docsPage('scalar', options).html).toBe(scalarHtml(options));
    expect(docsPage('swagger-ui', options).html).toBe(swaggerUiHtml(options));
    expect(docsPage('redoc', options).html).toBe(redocHtml(options));
  });

  test('returns a frozen page whose policy carries the UI needs', () => {
    for (const [ui, definition] of Object.entries(DOCS_UI_DEFINITIONS)) {
      const page = docsPage(ui as 'scalar', { specUrl: '/openapi.json' });
      expect(page.ui).toBe(ui as 'scalar');
      expect(Object.isFrozen(page)).toBe(true);
      expect(Object.isFrozen(page.policy)).toBe(true);
      expect(page.policy.allowInlineStyles).toBe(definition.needs.allowInlineStyles);
      expect(page.policy.allowBlobWorkers).toBe(definition.needs.allowBlobWorkers);
    }
  });
});
