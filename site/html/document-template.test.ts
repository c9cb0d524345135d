import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { buildContent } from '../content/build.ts';
import { readContentDir } from '../content/read-dir.ts';
import { TEST_ORIGIN, testSite } from '../pages/test-site.ts';
import { renderPageDocument } from './document.ts';
import { documentTemplate, fillDocumentTemplate } from './document-template.ts';

const CONTENT_DIR = join(import.meta.dir, '..', '..', 'content');

describe('document templates (pages rendered when the executable is compiled)', () => {
  test('every page of the real content has one, and filled it is the document rendered for that origin', async () => {
    const site = buildContent(await readContentDir(CONTENT_DIR));
    for (const page of site.pages) {
      const template = documentTemplate(site, page);
      expect(template).toBeDefined();
      for (const origin of ['https://charter.dev', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
        expect(fillDocumentTemplate(template!, origin)).toBe(renderPageDocument(site, page, { origin }));
      }
    }
  });

  test('an origin is serialised as the renderer does it (trailing slash, case, default port)', () => {
    const site = testSite();
    const page = site.byPath('docs/jwt')!;
    const template = documentTemplate(site, page)!;
    for (const origin of ['HTTPS://Docs.Example/', 'https://docs.example:443']) {
      expect(fillDocumentTemplate(template, origin)).toBe(renderPageDocument(site, page, { origin }));
      expect(fillDocumentTemplate(template, origin)).toContain(`href="${TEST_ORIGIN}/docs/jwt"`);
    }
  });

  test('an origin with a character outside the plain set is left to the renderer', () => {
    const site = testSite();
    const template = documentTemplate(site, site.byPath('index')!)!;
    expect(fillDocumentTemplate(template, 'http://a_b.example')).toBeUndefined();
    expect(fillDocumentTemplate(template, 'not an origin')).toBeUndefined();
  });

  test('a page that mentions the placeholder origin gets no template (rendered at run time)', () => {
    const site = buildContent([
      {
        file: 'index.md',
        text: '---\ntitle: Home\ndescription: Home.\norder: 0\n---\n\n# Home\n\nSee https://origin-placeholder.invalid here.\n',
      },
    ]);
    expect(documentTemplate(site, site.byPath('index')!)).toBeUndefined();
  });
});
