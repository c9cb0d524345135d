import { describe, expect, test } from 'bun:test';
import { App } from '@charter/app';
import { buildContent } from '../content/build.ts';
import { buildSuggestions, SUGGESTIONS_PATH, suggestionsRoute } from './suggestions.ts';

function file(path: string, title: string, body: string) {
  return {
    file: path,
    text: `---\ntitle: ${JSON.stringify(title)}\ndescription: About.\norder: 1\n---\n\n${body}`,
  };
}

const content = buildContent([
  file('index.md', 'Charter', '# Charter\n\n## Install\n\nText.\n'),
  file('docs/index.md', 'Guides', '# Guides\n'),
  file('docs/jwt.md', 'JSON Web Tokens', '# JSON Web Tokens\n\n## Verify a token\n\n### Keys\n'),
  file('reference/index.md', 'API reference', '# API reference\n'),
  file(
    'reference/jwt.md',
    'charter/jwt',
    '# charter/jwt\n\n## Functions\n\n### createJwtVerifier\n\nText.\n',
  ),
  file('docs/hostile.md', '</script><img src=x onerror=alert(1)>', '# Hostile\n'),
]);

describe('buildSuggestions', () => {
  test('lists page titles, then the sections of the guides, then the exports of the reference', () => {
    const list = buildSuggestions(content);
    const texts = list.map(([text]) => text);
    expect(texts.slice(0, content.pages.length)).toEqual(content.pages.map((page) => page.title));
    expect(list).toContainEqual(['Verify a token', '/docs/jwt#verify-a-token', 'JSON Web Tokens']);
    expect(list).toContainEqual(['Keys', '/docs/jwt#keys', 'JSON Web Tokens']);
    expect(list.at(-1)).toEqual(['createJwtVerifier', '/reference/jwt#createjwtverifier', 'charter/jwt']);
    // A reference page's h2s name kinds of export, not something to jump to.
    expect(texts).not.toContain('Functions');
    expect(list.find(([text]) => text === 'JSON Web Tokens')?.[2]).toBe('Guides');
  });
});

describe('GET /search/suggestions.json', () => {
  const app = new App({ logger: false });
  app.route(suggestionsRoute({ content }));

  test('answers the list as JSON with an ETag, and 304 when it has not changed', async () => {
    const response = await app.request(SUGGESTIONS_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(await response.json()).toEqual(buildSuggestions(content).map((entry) => [...entry]));
    const again = await app.request(SUGGESTIONS_PATH, { headers: { 'if-none-match': etag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test('carries hostile titles as JSON text, never as markup (the script sets textContent)', async () => {
    const text = await (await app.request(SUGGESTIONS_PATH)).text();
    expect(JSON.parse(text)).toContainEqual([
      '</script><img src=x onerror=alert(1)>',
      '/docs/hostile',
      'Guides',
    ]);
  });
});
