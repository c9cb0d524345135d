/**
 * The API reference (content/reference/, issue 23) against the package it describes. It is
 * generated from the built package (`bun run build && bun run reference`); these tests fail when
 * a subpath or an export is added, removed or changes its declaration or doc comment without the
 * reference being generated again, so a new export cannot be missing from the site. Subpaths come
 * from the package's exports map, so a new subpath is checked without a change here.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractPackageApi, subpathsOf } from '../../site/reference/extract.ts';
import {
  CONTENT_DIR,
  generateReference,
  PACKAGE_DIR,
  referenceDrift,
} from '../../site/reference/generate.ts';
import { documentedExports, REFERENCE_SECTION, safeDoc } from '../../site/reference/render.ts';

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
const subpaths = subpathsOf(manifest);
const slugOf = (key: string): string => (key === '.' ? manifest.name : key.slice(2));
const specifierOf = (key: string): string =>
  key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;

/** The export names a committed reference page describes: its `### name` headings. */
function documentedOn(slug: string): Set<string> {
  const text = readFileSync(join(CONTENT_DIR, REFERENCE_SECTION, `${slug}.md`), 'utf8');
  return new Set([...text.matchAll(/^### (\S+)$/gm)].map((match) => match[1] as string));
}

// One read of the package (the compiler takes seconds on a loaded machine).
const api = extractPackageApi(PACKAGE_DIR);

describe('the API reference', () => {
  test('is current: generating it again from the built package changes no declaration or doc comment', () => {
    const { changed, stale } = referenceDrift(generateReference(), CONTENT_DIR, { ignoreGuideLinks: true });
    if (changed.length + stale.length > 0) {
      throw new Error(
        `content/${REFERENCE_SECTION} is out of date: run \`bun run build && bun run reference\` and commit ` +
          `it (changed: ${changed.join(', ') || 'none'}; stale: ${stale.join(', ') || 'none'})`,
      );
    }
  }, 120_000);

  test('has a page for every subpath of the exports map, and the index links each', () => {
    const index = readFileSync(join(CONTENT_DIR, REFERENCE_SECTION, 'index.md'), 'utf8');
    expect(subpaths.length).toBeGreaterThan(10);
    for (const { key } of subpaths) {
      expect(index).toContain(`[\`${specifierOf(key)}\`](./${slugOf(key)}.md)`);
      expect(documentedOn(slugOf(key))).toBeInstanceOf(Set);
    }
  });

  test("describes every export of each subpath's declarations, and nothing else", () => {
    const elsewhere = new Set<string>();
    for (const { key } of subpaths)
      if (key !== '.') for (const name of documentedOn(slugOf(key))) elsewhere.add(name);
    for (const subpath of api.subpaths) {
      const documented = documentedOn(subpath.slug);
      const declared = subpath.exports.map((symbol) => symbol.name);
      // The root's re-exports of feature subpaths are described on those subpaths' pages.
      const missing = declared.filter(
        (name) => !documented.has(name) && !(subpath.key === '.' && elsewhere.has(name)),
      );
      expect({ subpath: subpath.specifier, missing }).toEqual({ subpath: subpath.specifier, missing: [] });
      const unknown = [...documented].filter((name) => !declared.includes(name));
      expect({ subpath: subpath.specifier, unknown }).toEqual({ subpath: subpath.specifier, unknown: [] });
    }
  });

  test('describes every value the built JavaScript of each subpath exports at run time', async () => {
    for (const { key } of subpaths) {
      const module = (await import(specifierOf(key))) as Record<string, unknown>;
      const documented = documentedOn(slugOf(key));
      const onRoot =
        key === '.' ? new Set(api.subpaths.flatMap((s) => s.exports.map((e) => e.name))) : undefined;
      const missing = Object.keys(module).filter((name) => !documented.has(name) && !onRoot?.has(name));
      expect({ subpath: specifierOf(key), missing }).toEqual({ subpath: specifierOf(key), missing: [] });
    }
  }, 60_000);

  test('lists an export once: the root page leaves out what a feature subpath describes', () => {
    const shown = documentedExports(api);
    const root = api.subpaths.find((subpath) => subpath.key === '.');
    expect(root).toBeDefined();
    const rootShown = new Set((shown.get(root!) ?? []).map((symbol) => symbol.name));
    for (const subpath of api.subpaths) {
      if (subpath === root) continue;
      for (const symbol of subpath.exports) expect(rootShown.has(symbol.name)).toBe(false);
    }
    expect(rootShown.has('App')).toBe(true);
  });

  test('shows a declaration, its doc comment, its @since when present, and the guides that use it', () => {
    const jwt = readFileSync(join(CONTENT_DIR, REFERENCE_SECTION, 'jwt.md'), 'utf8');
    expect(jwt).toContain('### createJwtVerifier\n\n```d.ts\nfunction createJwtVerifier(');
    expect(jwt).toMatch(/### createJwtVerifier[\s\S]*?Guides: \[JSON Web Tokens\]\(\.\.\/docs\/jwt\.md\)/);
    const shown = documentedExports(api);
    let checked = 0;
    for (const subpath of api.subpaths) {
      const page = readFileSync(join(CONTENT_DIR, REFERENCE_SECTION, `${subpath.slug}.md`), 'utf8');
      for (const symbol of shown.get(subpath) ?? []) {
        if (symbol.since === undefined) continue;
        const start = page.indexOf(`### ${symbol.name}\n`);
        const next = page.indexOf('\n### ', start + 4);
        expect(page.slice(start, next === -1 ? undefined : next)).toContain(`Since ${symbol.since}.`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('the currency check', () => {
  test('names a page that lost an export and a page no subpath has any more', () => {
    const dir = mkdtempSync(join(tmpdir(), 'charter-reference-'));
    try {
      cpSync(join(CONTENT_DIR, REFERENCE_SECTION), join(dir, REFERENCE_SECTION), { recursive: true });
      const pages = generateReference();
      const lenient = { ignoreGuideLinks: true };
      expect(referenceDrift(pages, dir, lenient)).toEqual({ changed: [], stale: [] });
      const jwt = join(dir, REFERENCE_SECTION, 'jwt.md');
      writeFileSync(jwt, readFileSync(jwt, 'utf8').replace('### createJwtVerifier\n', '### somethingElse\n'));
      writeFileSync(
        join(dir, REFERENCE_SECTION, 'retired.md'),
        '---\ntitle: x\ndescription: x\norder: 1\n---\n',
      );
      expect(referenceDrift(pages, dir, lenient)).toEqual({
        changed: [`${REFERENCE_SECTION}/jwt.md`],
        stale: [`${REFERENCE_SECTION}/retired.md`],
      });
      // Guide links alone may lag (they change with the guides, and the content build checks them):
      // only the strict comparison, which `bun run reference` applies, sees them.
      const jwk = join(dir, REFERENCE_SECTION, 'jwk.md');
      const jwkText = readFileSync(jwk, 'utf8');
      expect(jwkText).toContain('Guides: ');
      writeFileSync(jwk, jwkText.replaceAll('Guides: ', 'Guides: [Extra](../docs/jwt.md), '));
      expect(referenceDrift(pages, dir, lenient).changed).not.toContain(`${REFERENCE_SECTION}/jwk.md`);
      expect(referenceDrift(pages, dir).changed).toContain(`${REFERENCE_SECTION}/jwk.md`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('safeDoc', () => {
  test('keeps http(s) links, turns other links into their text and headings into text', () => {
    expect(safeDoc('See [RFC](https://www.rfc-editor.org/rfc/rfc7519) and [the guide](./jwt.md).')).toBe(
      'See [RFC](https://www.rfc-editor.org/rfc/rfc7519) and the guide.',
    );
    expect(safeDoc('# Not a heading\ntext')).toBe('\\# Not a heading\ntext');
  });
});
