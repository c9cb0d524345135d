import { describe, expect, test } from 'bun:test';
import { createMcpHandler } from '@charter/mcp';
import { createSearchIndex } from './search.ts';
import { CORPUS_PAGES, corpusSite, makeContentSite, makePage } from './test-corpus.ts';
import { callInit, type Json, rpcInit, textOf } from './test-rpc.ts';
import { createDocsTools, DOCS_TOOL_NAMES } from './tools.ts';

const ORIGIN = 'https://charter.dev';
const content = corpusSite();

function serverFor(site = content) {
  const handler = createMcpHandler({
    serverInfo: { name: 'docs-test', version: '1.0.0' },
    tools: createDocsTools({ content: site, origin: ORIGIN }),
  });
  return async (init: RequestInit): Promise<{ status: number; body: Json }> => {
    const response = await handler(new Request(`${ORIGIN}/mcp`, init));
    return { status: response.status, body: (await response.json()) as Json };
  };
}

const rpc = serverFor();

async function call(name: string, args: Json, era: 'legacy' | 'modern' = 'legacy'): Promise<Json> {
  const { status, body } = await rpc(callInit(name, args, { era }));
  expect(status).toBe(200);
  expect(body.error).toBeUndefined();
  return body.result as Json;
}

async function callError(name: string, args: Json): Promise<{ code: number; message: string }> {
  const { status, body } = await rpc(callInit(name, args));
  expect(status).toBe(200);
  return body.error as { code: number; message: string };
}

describe('createDocsTools', () => {
  test('lists list_docs, search_docs and get_doc, read-only, each with title and both schemas', async () => {
    const { body } = await rpc(rpcInit('tools/list'));
    const tools = (body.result as { tools: Json[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual([...DOCS_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      expect(typeof tool.title).toBe('string');
      expect(String(tool.description).length).toBeGreaterThan(40);
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
    const [list, search, get] = tools;
    expect(list?.inputSchema).toMatchObject({
      properties: { cursor: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
    });
    expect((list?.inputSchema as Json).required).toBeUndefined();
    expect(search?.inputSchema).toMatchObject({
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200 },
        limit: { minimum: 1, maximum: 20 },
      },
      required: ['query'],
    });
    expect(get?.inputSchema).toMatchObject({ properties: { path: { type: 'string' } }, required: ['path'] });
  });

  test('refuses options without content or with a relative origin', () => {
    expect(() => createDocsTools({ content: {} as never, origin: ORIGIN })).toThrow(/content/);
    expect(() => createDocsTools({ content, origin: '/docs' })).toThrow(/origin/);
  });
});

describe('search_docs', () => {
  test('answers ranked results with absolute URLs, as structuredContent and as JSON text', async () => {
    const result = await call('search_docs', { query: 'quokka' });
    const structured = result.structuredContent as {
      query: string;
      matchedAllTerms: boolean;
      results: Json[];
    };
    expect(structured.query).toBe('quokka');
    expect(structured.matchedAllTerms).toBe(true);
    expect(structured.results.map((r) => r.path)).toEqual([
      'docs/quokka-title',
      'docs/quokka-heading',
      'docs/quokka-description',
      'docs/quokka-body',
    ]);
    expect(structured.results[3]).toMatchObject({
      url: `${ORIGIN}/docs/quokka-body`,
      markdownUrl: `${ORIGIN}/docs/quokka-body.md`,
      title: 'Travel diary',
      snippet: expect.stringContaining('a **quokka** came close'),
    });
    expect(JSON.parse(textOf(result))).toEqual(structured);
    expect(result.isError).toBeUndefined();
  });

  test('defaults to 5 results and takes a limit up to 20', async () => {
    const many = makeContentSite(
      Array.from({ length: 25 }, (_, i) =>
        makePage({
          path: `docs/p${String(i).padStart(2, '0')}`,
          title: `Page ${i}`,
          description: 'd',
          text: 'common word',
        }),
      ),
    );
    const local = serverFor(many);
    const ask = async (args: Json) =>
      (
        ((await local(callInit('search_docs', args))).body.result as Json).structuredContent as {
          results: Json[];
        }
      ).results;
    expect(await ask({ query: 'common' })).toHaveLength(5);
    expect(await ask({ query: 'common', limit: 20 })).toHaveLength(20);
    expect((await ask({ query: 'common', limit: 2 })).map((r) => r.path)).toEqual(['docs/p00', 'docs/p01']);
  });

  test('a query that finds nothing is an empty result, not an error', async () => {
    const result = await call('search_docs', { query: 'zebra' });
    expect(result.structuredContent).toEqual({ query: 'zebra', matchedAllTerms: false, results: [] });
  });

  test('bad arguments are -32602 naming the argument', async () => {
    for (const [args, where] of [
      [{}, '"query"'],
      [{ query: '' }, 'arguments.query'],
      [{ query: 'x'.repeat(201) }, 'arguments.query'],
      [{ query: 42 }, 'arguments.query'],
      [{ query: 'jwt', limit: 21 }, 'arguments.limit'],
      [{ query: 'jwt', limit: 1.5 }, 'arguments.limit'],
    ] as const) {
      const error = await callError('search_docs', args);
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(where);
    }
  });
});

describe('get_doc', () => {
  test('returns the page: Markdown as the text, addresses and front matter as structuredContent', async () => {
    const page = content.byPath('docs/jwt');
    for (const path of ['docs/jwt', '/docs/jwt', '/docs/jwt.md', '/md/docs/jwt', `${ORIGIN}/docs/jwt`]) {
      const result = await call('get_doc', { path });
      expect(textOf(result)).toBe(page?.markdown as string);
      expect(result.structuredContent).toEqual({
        path: 'docs/jwt',
        url: `${ORIGIN}/docs/jwt`,
        title: 'JSON Web Tokens',
        description: 'Sign and verify JWTs with charter/jwt.',
        markdown: page?.markdown,
      });
    }
  });

  test('the same answer in the modern era', async () => {
    const result = await call('get_doc', { path: '/' }, 'modern');
    expect(result.resultType).toBe('complete');
    expect((result.structuredContent as Json).path).toBe('index');
  });

  test('an unknown page is an isError result naming the closest paths', async () => {
    const result = await call('get_doc', { path: 'docs/jwtt' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain('No page has the path "docs/jwtt"');
    expect(text).toContain('Closest paths: "docs/jwt"');
    expect(text).toContain('search_docs');
  });

  test('a URL on another origin is an isError result', async () => {
    const result = await call('get_doc', { path: 'https://evil.example/docs/jwt' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Only pages of ${ORIGIN}`);
  });

  test('bad arguments are -32602', async () => {
    for (const args of [{}, { path: '' }, { path: 7 }, { path: 'x'.repeat(2049) }]) {
      expect((await callError('get_doc', args)).code).toBe(-32602);
    }
  });
});

describe('list_docs', () => {
  test('lists every page in reading order with no arguments', async () => {
    const result = await call('list_docs', {});
    const structured = result.structuredContent as { pages: Json[]; total: number; nextCursor?: string };
    expect(structured.total).toBe(CORPUS_PAGES.length);
    expect(structured.nextCursor).toBeUndefined();
    expect(structured.pages.map((p) => p.path)).toEqual(CORPUS_PAGES.map((p) => p.path));
    expect(structured.pages[0]).toEqual({
      path: 'index',
      url: `${ORIGIN}/`,
      markdownUrl: `${ORIGIN}/index.md`,
      title: 'Charter',
      description: 'A contract-first TypeScript web framework.',
      section: '',
    });
    expect(structured.pages[1]?.section).toBe('docs');
    expect(JSON.parse(textOf(result))).toEqual(structured);
  });

  test('pages through the list with nextCursor until the last page, which has none', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const args: Json = cursor === undefined ? { limit: 3 } : { limit: 3, cursor };
      const structured = (await call('list_docs', args)).structuredContent as {
        pages: Json[];
        nextCursor?: string;
      };
      expect(structured.pages.length).toBeLessThanOrEqual(3);
      seen.push(...structured.pages.map((p) => p.path as string));
      cursor = structured.nextCursor;
      calls++;
    } while (cursor !== undefined && calls < 20);
    expect(calls).toBe(Math.ceil(CORPUS_PAGES.length / 3));
    expect(seen).toEqual(CORPUS_PAGES.map((p) => p.path));
  });

  test('a cursor from another build of the site, or a made-up one, is an isError result', async () => {
    const other = serverFor(makeContentSite(CORPUS_PAGES.slice(0, 5)));
    const first = (await other(callInit('list_docs', { limit: 2 }))).body.result as Json;
    const foreign = (first.structuredContent as { nextCursor: string }).nextCursor;
    expect(typeof foreign).toBe('string');
    for (const cursor of [foreign, 'bm9wZQ', 'not a cursor']) {
      const result = await call('list_docs', { cursor });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('Call list_docs without a cursor');
    }
  });

  test('bad arguments are -32602', async () => {
    for (const args of [
      { limit: 0 },
      { limit: 101 },
      { cursor: '' },
      { cursor: 5 },
      { cursor: 'x'.repeat(129) },
    ]) {
      expect((await callError('list_docs', args)).code).toBe(-32602);
    }
  });

  test('the search index can be given instead of built', async () => {
    const index = createSearchIndex(CORPUS_PAGES.slice(0, 3));
    const handler = createMcpHandler({
      serverInfo: { name: 'docs-test', version: '1.0.0' },
      tools: createDocsTools({ content, origin: ORIGIN, index }),
    });
    const response = await handler(
      new Request(`${ORIGIN}/mcp`, callInit('search_docs', { query: 'quokka' })),
    );
    const body = (await response.json()) as { result: { structuredContent: { results: Json[] } } };
    expect(body.result.structuredContent.results.map((r) => r.path)).toEqual(['docs/quokka-title']);
  });
});
