/**
 * `bun run reference`: writes the API reference into `content/reference/` from the built package
 * (run `bun run build` first). `--check` writes nothing and exits 1, naming the files, when the
 * committed pages describe another API than the package gives now (a test does the same in CI);
 * which guides link each export is refreshed by every run but not checked.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseFrontMatter } from '../content/front-matter.ts';
import { extractPackageApi } from './extract.ts';
import { type GeneratedPage, type Guide, REFERENCE_SECTION, renderReference } from './render.ts';

export const ROOT = resolve(import.meta.dir, '..', '..');
export const PACKAGE_DIR = join(ROOT, 'packages', 'charter');
export const CONTENT_DIR = join(ROOT, 'content');

/** The guides of `content/docs/` as the reference links them. */
export function readGuides(contentDir = CONTENT_DIR): Guide[] {
  const dir = join(contentDir, 'docs');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const file = `docs/${name}`;
      const { frontMatter, body } = parseFrontMatter(readFileSync(join(dir, name), 'utf8'), file);
      return { file, title: frontMatter.title, markdown: body };
    });
}

/** The reference pages the package and guides give now. */
export function generateReference(packageDir = PACKAGE_DIR, contentDir = CONTENT_DIR): GeneratedPage[] {
  return renderReference(extractPackageApi(packageDir), readGuides(contentDir));
}

/**
 * A page without its "Guides:" links: which guides use an export changes with every edit of a guide,
 * and a stale link is still checked by the content build, so the currency check leaves them out.
 */
export function withoutGuideLinks(text: string): string {
  return text.replace(/ ?Guides: [^\n]*/g, '');
}

/**
 * The differences between `pages` and `content/reference/`: files to write and files to remove.
 * Guide links are compared too unless `ignoreGuideLinks` (what CI checks: the API itself).
 */
export function referenceDrift(
  pages: readonly GeneratedPage[],
  contentDir = CONTENT_DIR,
  options: { readonly ignoreGuideLinks?: boolean } = {},
): { changed: string[]; stale: string[] } {
  const comparable = options.ignoreGuideLinks === true ? withoutGuideLinks : (text: string) => text;
  const dir = join(contentDir, REFERENCE_SECTION);
  const present = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.md')) : [];
  const wanted = new Set(pages.map((page) => page.file));
  const changed = pages
    .filter((page) => {
      const path = join(contentDir, page.file);
      return !existsSync(path) || comparable(readFileSync(path, 'utf8')) !== comparable(page.text);
    })
    .map((page) => page.file);
  const stale = present.map((name) => `${REFERENCE_SECTION}/${name}`).filter((file) => !wanted.has(file));
  return { changed, stale };
}

if (import.meta.main) {
  const pages = generateReference();
  const check = process.argv.includes('--check');
  const { changed, stale } = referenceDrift(pages, CONTENT_DIR, { ignoreGuideLinks: check });
  if (check) {
    if (changed.length + stale.length > 0) {
      console.error(
        `content/${REFERENCE_SECTION} is out of date (run \`bun run build && bun run reference\`):\n` +
          [
            ...changed.map((file) => `  changed: content/${file}`),
            ...stale.map((file) => `  stale: content/${file}`),
          ].join('\n'),
      );
      process.exit(1);
    }
    console.log(`content/${REFERENCE_SECTION} is current (${pages.length} pages)`);
  } else {
    mkdirSync(join(CONTENT_DIR, REFERENCE_SECTION), { recursive: true });
    for (const file of stale) rmSync(join(CONTENT_DIR, file));
    for (const page of pages) writeFileSync(join(CONTENT_DIR, page.file), page.text);
    console.log(
      `Wrote ${pages.length} pages to content/${REFERENCE_SECTION} (${changed.length} changed, ${stale.length} removed)`,
    );
  }
}
