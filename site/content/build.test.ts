import { describe, expect, test } from 'bun:test';
import { buildContent } from './build.ts';
import { ContentError } from './content-error.ts';
import type { ContentEntry } from './types.ts';

/** A content file with valid front matter. */
function page(file: string, title: string, order: number, body = `# ${title}\n`): ContentEntry {
  return {
    file,
    text: `---\ntitle: ${title}\ndescription: About ${title}.\norder: ${order}\n---\n\n${body}`,
  };
}

const SITE: ContentEntry[] = [
  page(
    'docs/jwt.md',
    'JWT',
    2,
    '# JWT\n\n## Verify\n\nSee [sessions](./sessions.md#store) and [home](../index.md).\n',
  ),
  page(
    'index.md',
    'Getting started',
    1,
    '# Getting started\n\n## Install\n\nRead [the guides](docs/index.md).\n',
  ),
  page('errors/not-found.md', 'Not found', 1),
  page(
    'docs/sessions.md',
    'Sessions',
    2,
    '# Sessions\n\n## Store\n\n[Top](#sessions), [JWT](/docs/jwt#verify).\n',
  ),
  page('docs/index.md', 'Guides', 0),
  page('changelog/index.md', 'Changes', 0),
  page('about.md', 'About', 5),
  page('errors/index.md', 'Errors', 0),
  page('api-notes/index.md', 'Notes', 0),
  page('docs/auth.md', 'Authentication', 2),
];

/** The ContentError thrown by building `entries`. */
function failure(entries: readonly ContentEntry[]): ContentError {
  try {
    buildContent(entries);
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return error as ContentError;
  }
  throw new Error('expected buildContent to throw');
}

const minimal = (...more: ContentEntry[]): ContentEntry[] => [page('index.md', 'Home', 1), ...more];

describe('buildContent', () => {
  test('addresses pages by path, canonical URL and Markdown URL as the table in types.ts says', () => {
    const site = buildContent(SITE);
    const addresses = (path: string) => {
      const found = site.byPath(path);
      return found && [found.url, found.markdownUrl, found.section];
    };
    expect(addresses('index')).toEqual(['/', '/index.md', '']);
    expect(addresses('docs')).toEqual(['/docs', '/docs.md', 'docs']);
    expect(addresses('docs/jwt')).toEqual(['/docs/jwt', '/docs/jwt.md', 'docs']);
    expect(addresses('errors/not-found')).toEqual(['/errors/not-found', '/errors/not-found.md', 'errors']);
    expect(addresses('about')).toEqual(['/about', '/about.md', '']);
    expect(site.byUrl('/docs/jwt')?.path).toBe('docs/jwt');
    expect(site.byUrl('/')?.path).toBe('index');
    expect(site.byUrl('/docs/jwt.md')).toBeUndefined();
    expect(site.byPath('missing')).toBeUndefined();
  });

  test('orders sections top-level, Guides, Errors, then other folders by name, titled from the name', () => {
    const site = buildContent(SITE);
    expect(site.sections.map((section) => [section.id, section.title])).toEqual([
      ['', 'Overview'],
      ['docs', 'Guides'],
      ['errors', 'Errors'],
      ['api-notes', 'Api notes'],
      ['changelog', 'Changelog'],
    ]);
  });

  test('orders pages in a section by order, then by title', () => {
    const site = buildContent(SITE);
    const docs = site.sections.find((section) => section.id === 'docs');
    expect(docs?.pages.map((entry) => entry.path)).toEqual([
      'docs',
      'docs/auth',
      'docs/jwt',
      'docs/sessions',
    ]);
    expect(site.sections[0]?.pages.map((entry) => entry.path)).toEqual(['index', 'about']);
  });

  test('puts pages in reading order and links each to its previous and next page', () => {
    const site = buildContent(SITE);
    const order = site.pages.map((entry) => entry.path);
    expect(order).toEqual([
      'index',
      'about',
      'docs',
      'docs/auth',
      'docs/jwt',
      'docs/sessions',
      'errors',
      'errors/not-found',
      'api-notes',
      'changelog',
    ]);
    site.pages.forEach((entry, position) => {
      expect(entry.previous).toBe(order[position - 1]);
      expect(entry.next).toBe(order[position + 1]);
    });
    expect(site.byPath('index')?.previous).toBeUndefined();
    expect(site.byPath('changelog')?.next).toBeUndefined();
  });

  test('keeps front matter, the Markdown body, the HTML, the text and the headings on each page', () => {
    const jwt = buildContent(SITE).byPath('docs/jwt');
    expect(jwt?.title).toBe('JWT');
    expect(jwt?.description).toBe('About JWT.');
    expect(jwt?.order).toBe(2);
    expect(jwt?.markdown.startsWith('# JWT\n\n## Verify')).toBe(true);
    expect(jwt?.headings).toEqual([{ depth: 2, text: 'Verify', id: 'verify' }]);
    expect(jwt?.text).toBe('JWT Verify See sessions and home.');
  });

  test('rewrites relative .md links to canonical URLs, keeping the fragment', () => {
    const site = buildContent(SITE);
    expect(site.byPath('docs/jwt')?.html).toContain('<a href="/docs/sessions#store">sessions</a>');
    expect(site.byPath('docs/jwt')?.html).toContain('<a href="/">home</a>');
    expect(site.byPath('index')?.html).toContain('<a href="/docs">the guides</a>');
  });

  test('leaves absolute, fragment and external links as written', () => {
    const html = buildContent(SITE).byPath('docs/sessions')?.html ?? '';
    expect(html).toContain('<a href="#sessions">Top</a>');
    expect(html).toContain('<a href="/docs/jwt#verify">JWT</a>');
    const outside = buildContent(
      minimal(page('a.md', 'A', 1, '[api](/api/v1) [llms](/llms.txt) [md](/md/index) [x](https://e.x/y.md)')),
    );
    expect(outside.byPath('a')?.html).toContain('<a href="/api/v1">api</a> <a href="/llms.txt">llms</a>');
    expect(outside.byPath('a')?.html).toContain('<a href="https://e.x/y.md" rel="noopener">x</a>');
  });

  test('returns frozen pages and sections', () => {
    const site = buildContent(SITE);
    expect(Object.isFrozen(site.pages)).toBe(true);
    expect(Object.isFrozen(site.pages[0])).toBe(true);
    expect(Object.isFrozen(site.sections[1]?.pages)).toBe(true);
  });
});

describe('buildContent: refusals', () => {
  test('refuses a link to a page that does not exist, naming file and line', () => {
    const error = failure(minimal(page('a.md', 'A', 1, '# A\n\nText.\n\nSee [gone](./gone.md).\n')));
    expect(error.message).toBe('a.md:11: broken link "./gone.md": content/gone.md does not exist');
  });

  test('refuses a relative link that climbs out of content/', () => {
    expect(failure(minimal(page('a.md', 'A', 1, '[x](../../a.md)'))).message).toContain('broken link');
  });

  test('refuses a fragment that is not a heading of the target page', () => {
    expect(failure(minimal(page('a.md', 'A', 1, '# A\n\n[x](./index.md#nope)'))).message).toBe(
      'a.md:9: broken link "./index.md#nope": the page index has no heading with the id "nope"',
    );
    expect(failure(minimal(page('a.md', 'A', 1, '# A\n\n[x](#a-2)'))).message).toContain(
      'no heading with the id "a-2"',
    );
    expect(failure(minimal(page('a.md', 'A', 1, '[x](/#nope)'))).message).toContain(
      'the page index has no heading',
    );
  });

  test('refuses an absolute link into a content folder that matches no page', () => {
    const entries = minimal(page('docs/index.md', 'Guides', 1), page('a.md', 'A', 1, '[x](/docs/nope)'));
    expect(failure(entries).message).toContain('broken link "/docs/nope": no page has the URL /docs/nope');
  });

  test('refuses a relative link that does not name a Markdown file', () => {
    expect(failure(minimal(page('a.md', 'A', 1, '[x](./index)'))).message).toContain(
      'must name a Markdown file (./page.md) or be absolute',
    );
  });

  test('refuses files that do not end in .md', () => {
    expect(failure(minimal({ file: 'notes.txt', text: 'x' })).message).toBe(
      'notes.txt: only Markdown files (.md) belong in content/',
    );
  });

  test.each(['Docs/a.md', 'docs/a_b.md', 'docs/a b.md', 'docs/a.b.md', 'docs/é.md'])(
    'refuses the file name %p',
    (file) => {
      expect(failure(minimal(page(file, 'X', 1))).message).toContain('file names may use only a-z, 0-9');
    },
  );

  test('refuses folders nested more than one level deep, and empty segments', () => {
    expect(failure(minimal(page('docs/deep/a.md', 'A', 1))).message).toContain('nest one level deep at most');
    expect(failure(minimal(page('docs//a.md', 'A', 1))).message).toContain('empty segment');
  });

  test('refuses two files with the same page path', () => {
    const error = failure(minimal(page('docs.md', 'Docs', 1), page('docs/index.md', 'Guides', 1)));
    expect(error.message).toBe("docs/index.md: duplicate page path 'docs': docs.md has the same URL /docs");
    expect(failure(minimal(page('a.md', 'A', 1), page('a.md', 'A', 2))).message).toContain('listed twice');
  });

  test('refuses content without index.md, and a section without its index.md', () => {
    expect(failure([page('a.md', 'A', 1)]).message).toBe(
      'index.md: missing index.md: the home page (/) is required',
    );
    expect(failure(minimal(page('docs/a.md', 'A', 1))).message).toBe(
      "docs/index.md: missing index.md: the section 'docs' needs one for its URL /docs",
    );
  });

  test('refuses bad front matter with the file and line', () => {
    expect(failure(minimal({ file: 'a.md', text: '# No front matter' })).message).toContain(
      'a.md:1: missing front matter',
    );
  });
});
