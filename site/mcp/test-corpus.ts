/**
 * A small hand-written documentation corpus for the tests of `site/mcp`: `Page` objects built the
 * way `buildContent` addresses them (path, url, markdownUrl, section), and a `ContentSite` over
 * them. Words are chosen so that ranking can be predicted: `quokka` sits in one page's title,
 * another's heading, another's description and another's body.
 */
import type { ContentSite, NavSection, Page, PageHeading } from '../content/types.ts';

/** What a test page declares; the addresses follow from `path`. */
export interface PageSpec {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly headings?: readonly string[];
  /** Plain text of the page (the body, what search reads). */
  readonly text: string;
  /** The Markdown; default a heading and the text. */
  readonly markdown?: string;
  readonly order?: number;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== '')
    .join('-');
}

/** A Page as buildContent would address it. */
export function makePage(spec: PageSpec): Page {
  const url = spec.path === 'index' ? '/' : `/${spec.path}`;
  const slash = spec.path.indexOf('/');
  const section = slash === -1 ? (spec.path === 'index' ? '' : spec.path) : spec.path.slice(0, slash);
  const headings: PageHeading[] = (spec.headings ?? []).map((text) => ({ depth: 2, text, id: slug(text) }));
  const markdown =
    spec.markdown ??
    [`# ${spec.title}`, '', spec.text, '', ...(spec.headings ?? []).map((h) => `## ${h}\n`)].join('\n');
  return Object.freeze({
    path: spec.path,
    url,
    markdownUrl: spec.path === 'index' ? '/index.md' : `${url}.md`,
    section,
    title: spec.title,
    description: spec.description,
    order: spec.order ?? 1,
    markdown,
    html: `<h1>${spec.title}</h1>`,
    text: spec.text,
    headings,
    previous: undefined,
    next: undefined,
  });
}

/** A ContentSite over pages (already in reading order). */
export function makeContentSite(pages: readonly Page[]): ContentSite {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const sectionIds = [...new Set(pages.map((page) => page.section))];
  const sections: NavSection[] = sectionIds.map((id) => ({
    id,
    title: id === '' ? 'Overview' : id,
    pages: pages.filter((page) => page.section === id),
  }));
  return Object.freeze({
    pages: Object.freeze([...pages]),
    sections,
    byPath: (path: string) => byPath.get(path),
    byUrl: (url: string) => byUrl.get(url),
  });
}

const FILLER =
  'Charter routes take a web-standard Request and answer a Response, with schemas checked on the way in and out.';

/** The corpus, in reading order. */
export const CORPUS_SPECS: readonly PageSpec[] = [
  {
    path: 'index',
    title: 'Charter',
    description: 'A contract-first TypeScript web framework.',
    text: `Charter is a contract-first web framework for TypeScript. ${FILLER}`,
  },
  {
    path: 'docs',
    title: 'Guides',
    description: 'Every guide, in reading order.',
    text: `The guides walk through routes, hooks, errors and the tool server. ${FILLER}`,
  },
  {
    path: 'docs/quokka-title',
    title: 'Quokka handling',
    description: 'How the framework treats small marsupials.',
    headings: ['Overview'],
    text: `An overview of marsupial care in general terms. ${FILLER}`,
  },
  {
    path: 'docs/quokka-heading',
    title: 'Island fauna',
    description: 'Animals of islands, listed.',
    headings: ['The quokka'],
    text: `Islands hold many small animals worth a visit. ${FILLER}`,
  },
  {
    path: 'docs/quokka-description',
    title: 'Field notes',
    description: 'Notes about the quokka and its habits.',
    text: `Field notes written down during a long walk. ${FILLER}`,
  },
  {
    path: 'docs/quokka-body',
    title: 'Travel diary',
    description: 'A diary of a trip west.',
    text: `On the third day a quokka came close to the path. ${FILLER}`,
  },
  {
    path: 'docs/tool-server',
    title: 'Tool server (MCP)',
    description: 'charter/mcp serves tools over one Streamable HTTP endpoint.',
    headings: ['Tools', 'Results and errors'],
    text:
      'createMcpHandler turns a list of tools into a server. Declare tools with defineMcpTool so the ' +
      'handler arguments are typed. The search_docs tool of the site is built with it. Throw ' +
      'McpToolError for a failure the model should read; the call answers isError. ' +
      'Rate limits apply to the endpoint like any other route.',
  },
  {
    path: 'docs/rate-limits',
    title: 'Rate limits',
    description: 'The rateLimit hook: quotas per client with RateLimit headers.',
    headings: ['RateLimit headers', 'Stores'],
    text:
      'rateLimit counts requests per client in a window and answers 429 with Retry-After once the ' +
      'quota is spent. The RateLimit and RateLimit-Policy headers tell a client where it stands. ' +
      'A store keeps the counters; the memory store suits one process.',
  },
  {
    path: 'docs/jwt',
    title: 'JSON Web Tokens',
    description: 'Sign and verify JWTs with charter/jwt.',
    headings: ['Signing', 'Verifying'],
    text:
      'signJwt creates a token; verifyJwt checks its signature, issuer, audience and expiry. ' +
      'Keys come from a JWK set. Tokens carry claims such as sub and scope. Use * and \\ with care in claims.',
  },
  {
    path: 'docs/unicode',
    title: 'Unicode café',
    description: 'Text in many scripts: 日本語 and emoji 🦘 included.',
    text: 'Ünïcödé text is indexed by letters and digits in any script: 東京 ナビ, Straße, 🦘 kangaroo.',
  },
];

/** The corpus pages. */
export const CORPUS_PAGES: readonly Page[] = CORPUS_SPECS.map(makePage);

/** The corpus as a ContentSite. */
export function corpusSite(): ContentSite {
  return makeContentSite(CORPUS_PAGES);
}
