/**
 * The official TypeScript MCP clients against the library catalogue example (examples/mcp-server.ts)
 * served over real loopback HTTP by the Bun adapter: the v1 `@modelcontextprotocol/sdk` client
 * (legacy era, initialize handshake, 2025-11-25) and the v2 `@modelcontextprotocol/client` client
 * pinned to 2026-07-28 and in `auto` mode (modern era). One behaviour suite runs with each; a fetch
 * wrapper records the wire so the headers the clients sent and the server answered can be checked.
 * The v1 client also runs under real Node (fixtures/node-v1-client.mjs).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import {
  Client as V2Client,
  ProtocolError,
  SdkError,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError as V1McpError } from '@modelcontextprotocol/sdk/types.js';
import { type BunServer, serve } from 'charter/bun';
import { describeJsonSchema, type JsonSchema } from 'charter';
import {
  BORROW_BOOK_INPUT,
  createMcpExampleApp,
  LIST_BOOKS_INPUT,
  SearchBooksInput,
  SearchBooksOutput,
  WithdrawBookInput,
} from '../../examples/mcp-server.ts';

const TEST_TIMEOUT_MS = 5_000;
const NODE_TIMEOUT_MS = 10_000;
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
const DUNE = '9780441172719';
const HISTORIES = '9780393317558';
const HAWKING = '9780553380163';
const GEB = '9780465026562';
const NO_SUCH_BOOK = 'library://books/0000000000000';

type Json = Record<string, unknown>;
type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** One HTTP exchange as the client's fetch saw it. */
interface Exchange {
  readonly method: string;
  readonly headers: Headers;
  readonly body: Json | undefined;
  readonly status: number;
  readonly responseHeaders: Headers;
  readonly responseBody: Json | undefined;
}

/** The methods both client lines share, loosely typed: the suite reads results as JSON. */
interface CommonClient {
  listTools(): Promise<Json & { tools: Json[] }>;
  callTool(params: { name: string; arguments?: Json }): Promise<Json>;
  listResources(): Promise<Json & { resources: Json[] }>;
  listResourceTemplates(): Promise<Json & { resourceTemplates: Json[] }>;
  readResource(params: { uri: string }): Promise<Json & { contents: Json[] }>;
  listPrompts(): Promise<Json & { prompts: Json[] }>;
  getPrompt(params: {
    name: string;
    arguments?: Record<string, string>;
  }): Promise<Json & { messages: Json[] }>;
  complete(params: Json): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  ping(): Promise<Json>;
  setLoggingLevel(level: string): Promise<Json>;
  close(): Promise<void>;
}

/** Answers the v2 client gives to elicitation requests, and the requests it got. */
interface Elicitor {
  readonly asked: Json[];
  readonly answers: Json[];
}

interface Connected {
  readonly client: CommonClient;
  readonly protocolVersion: string | undefined;
  readonly era: string | undefined;
}

interface ClientSetup {
  readonly name: string;
  readonly era: 'legacy' | 'modern';
  readonly protocolVersion: string;
  /** The class a JSON-RPC error answer is thrown as. */
  readonly errorClass: abstract new (
    ...args: never[]
  ) => Error;
  /** Connects; with an elicitor (v2 only) the client declares elicitation and answers from it. */
  connect(url: URL, fetchLike: FetchLike, elicitor?: Elicitor): Promise<Connected>;
}

async function connectV2(
  mode: 'auto' | { pin: string },
  url: URL,
  fetchLike: FetchLike,
  elicitor: Elicitor | undefined,
): Promise<Connected> {
  const client = new V2Client(
    { name: 'charter-test-v2', version: '1.0.0' },
    {
      versionNegotiation: { mode },
      ...(elicitor === undefined ? {} : { capabilities: { elicitation: {} } }),
    },
  );
  if (elicitor !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      elicitor.asked.push(request.params as Json);
      return (elicitor.answers.shift() ?? { action: 'cancel' }) as { action: 'cancel' };
    });
  }
  await client.connect(new V2Transport(url, { fetch: fetchLike }));
  return {
    client: client as unknown as CommonClient,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    era: client.getProtocolEra(),
  };
}

const SETUPS: readonly ClientSetup[] = [
  {
    name: 'v1 Client + StreamableHTTPClientTransport (@modelcontextprotocol/sdk 1.32.2)',
    era: 'legacy',
    protocolVersion: '2025-11-25',
    errorClass: V1McpError,
    async connect(url, fetchLike) {
      const client = new V1Client({ name: 'charter-test-v1', version: '1.0.0' });
      const transport = new V1Transport(url, { fetch: fetchLike });
      await client.connect(transport);
      // v1 has no era notion: the transport holds what initialize negotiated.
      return {
        client: client as unknown as CommonClient,
        protocolVersion: transport.protocolVersion,
        era: undefined,
      };
    },
  },
  {
    name: "v2 Client, versionNegotiation { mode: { pin: '2026-07-28' } } (@modelcontextprotocol/client 2.4.0)",
    era: 'modern',
    protocolVersion: '2026-07-28',
    errorClass: ProtocolError,
    connect: (url, fetchLike, elicitor) => connectV2({ pin: '2026-07-28' }, url, fetchLike, elicitor),
  },
  {
    name: "v2 Client, versionNegotiation { mode: 'auto' } (@modelcontextprotocol/client 2.4.0)",
    era: 'modern',
    protocolVersion: '2026-07-28',
    errorClass: ProtocolError,
    connect: (url, fetchLike, elicitor) => connectV2('auto', url, fetchLike, elicitor),
  },
];

function parseJson(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch that records every exchange in `wire`. */
function recordingFetch(wire: Exchange[]): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    const body = typeof init?.body === 'string' ? parseJson(init.body) : undefined;
    wire.push({
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body,
      status: response.status,
      responseHeaders: response.headers,
      responseBody: parseJson(await response.clone().text()),
    });
    return response;
  };
}

/** The error a call rejects with; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code?: unknown; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: unknown; data?: unknown };
  }
  throw new Error('expected the call to be rejected');
}

function jsonSchemaOf(
  schema: Parameters<typeof describeJsonSchema>[0],
  direction: 'input' | 'output',
): JsonSchema {
  const described = describeJsonSchema(schema, direction);
  if ('error' in described) throw new Error(described.error);
  return described.schema;
}

function textOf(result: Json): string {
  const [first] = result.content as { type: string; text: string }[];
  expect(first?.type).toBe('text');
  return first?.text ?? '';
}

function postsOf(wire: readonly Exchange[], method: string): Exchange[] {
  return wire.filter((exchange) => exchange.body?.method === method);
}

async function startServer(): Promise<{ server: BunServer; url: URL }> {
  const server = await serve(createMcpExampleApp({ app: { logger: false } }), { port: 0, signals: false });
  return { server, url: new URL(`${server.url}/mcp`) };
}

for (const setup of SETUPS) {
  describe(setup.name, () => {
    const wire: Exchange[] = [];
    const elicitor: Elicitor = { asked: [], answers: [] };
    let server: BunServer;
    let url: URL;
    let connected: Connected;
    let client: CommonClient;
    const modern = setup.era === 'modern';

    beforeAll(async () => {
      ({ server, url } = await startServer());
      connected = await setup.connect(url, recordingFetch(wire), elicitor);
      client = connected.client;
    });

    afterAll(async () => {
      await client?.close();
      await server?.close(1_000);
    });

    test(
      `connects in the ${setup.era} era at ${setup.protocolVersion}`,
      () => {
        expect(connected.protocolVersion).toBe(setup.protocolVersion);
        if (modern) {
          expect(connected.era).toBe('modern');
          // The era was decided by a server/discover probe, not by initialize.
          expect(wire[0]?.body).toMatchObject({ id: 'server-discover-probe-1', method: 'server/discover' });
          expect(postsOf(wire, 'initialize')).toEqual([]);
        } else {
          expect(wire[0]?.body).toMatchObject({
            method: 'initialize',
            params: { protocolVersion: '2025-11-25' },
          });
          expect(wire[0]?.responseBody).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
          expect(postsOf(wire, 'server/discover')).toEqual([]);
        }
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'listTools: the four tools in declaration order, with the schemas as declared',
      async () => {
        const listed = await client.listTools();
        expect(listed.tools.map((tool) => tool.name)).toEqual([
          'list_books',
          'search_books',
          'borrow_book',
          'withdraw_book',
        ]);
        const [list, search, borrow, withdraw] = listed.tools;
        expect(list).toMatchObject({ title: 'List books', annotations: { readOnlyHint: true } });
        expect(list?.inputSchema).toEqual(LIST_BOOKS_INPUT);
        expect(list?.outputSchema).toBeUndefined();
        expect(search?.inputSchema).toEqual(jsonSchemaOf(SearchBooksInput, 'input'));
        expect(search?.outputSchema).toEqual(jsonSchemaOf(SearchBooksOutput, 'output'));
        expect(borrow?.inputSchema).toEqual(BORROW_BOOK_INPUT);
        expect(withdraw?.inputSchema).toEqual(jsonSchemaOf(WithdrawBookInput, 'input'));
        expect(withdraw?.annotations).toMatchObject({ destructiveHint: true });
        for (const tool of listed.tools) expect(typeof tool.description).toBe('string');
        // Cache hints and the server's identity decorate modern results only.
        if (modern) {
          expect(listed).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
          expect((listed._meta as Json)?.[SERVER_INFO_KEY]).toMatchObject({ name: 'library-catalogue' });
        } else {
          expect(listed.ttlMs).toBeUndefined();
          expect(listed.cacheScope).toBeUndefined();
          expect(listed._meta).toBeUndefined();
        }
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'callTool: the first tool answers {} (no required arguments)',
      async () => {
        const result = await client.callTool({ name: 'list_books', arguments: {} });
        expect(result.isError).toBeUndefined();
        expect((result.structuredContent as { books: unknown[] }).books).toHaveLength(5);
        expect(textOf(result).split('\n')).toHaveLength(5);
        const fiction = await client.callTool({ name: 'list_books', arguments: { genre: 'fiction' } });
        expect(
          (fiction.structuredContent as { books: { genre: string }[] }).books.map((b) => b.genre),
        ).toEqual(['fiction', 'fiction']);
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'callTool: an arktype tool answers structuredContent and its JSON as the text block',
      async () => {
        const result = await client.callTool({ name: 'search_books', arguments: { query: 'HERBERT' } });
        const expected = {
          total: 1,
          books: [{ isbn: DUNE, title: 'Dune', author: 'Frank Herbert', genre: 'fiction', year: 1965 }],
        };
        expect(result.structuredContent).toEqual(expected);
        expect(JSON.parse(textOf(result))).toEqual(expected);
        expect(result.isError).toBeUndefined();
        if (modern) expect((result._meta as Json)?.[SERVER_INFO_KEY]).toMatchObject({ version: '1.0.0' });
        else expect(result._meta).toBeUndefined();
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'callTool: a schema violation is thrown as a -32602 error naming the bad argument',
      async () => {
        const arktype = await rejectionOf(
          client.callTool({ name: 'search_books', arguments: { query: 'dune', limit: 50 } }),
        );
        expect(arktype).toBeInstanceOf(setup.errorClass);
        expect(arktype.code).toBe(-32602);
        expect(arktype.message).toContain('arguments.limit');
        expect(arktype.data).toEqual({ problems: ['arguments.limit must be at most 20'] });

        const jsonSchema = await rejectionOf(
          client.callTool({ name: 'borrow_book', arguments: { isbn: DUNE, member: 42 } }),
        );
        expect(jsonSchema).toBeInstanceOf(setup.errorClass);
        expect(jsonSchema.code).toBe(-32602);
        expect(jsonSchema.message).toContain('arguments.member');
        // The handler never ran: the book is still available.
        const record = await client.readResource({ uri: `library://books/${DUNE}` });
        expect(JSON.parse(String(record.contents[0]?.text))).toMatchObject({ isbn: DUNE, available: true });
        const answer = postsOf(wire, 'tools/call').find(
          (e) => (e.body?.params as Json)?.name === 'borrow_book',
        );
        expect(answer?.status).toBe(200);
        expect(answer?.responseBody).toMatchObject({ error: { code: -32602 } });
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'callTool: an McpToolError comes back as an isError result, not a throw',
      async () => {
        const first = await client.callTool({
          name: 'borrow_book',
          arguments: { isbn: DUNE, member: 'ann' },
        });
        expect(first.isError).toBeUndefined();
        expect(textOf(first)).toBe('Lent "Dune" to ann');
        const again = await client.callTool({
          name: 'borrow_book',
          arguments: { isbn: DUNE, member: 'bob' },
        });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toBe('"Dune" is already on loan');
        expect(again.structuredContent).toEqual({ isbn: DUNE, available: false });
        const unknown = await client.callTool({
          name: 'borrow_book',
          arguments: { isbn: '1234567890123', member: 'ann' },
        });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain('No book has the ISBN 1234567890123');
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'listResources and listResourceTemplates: the fixed resource and the template',
      async () => {
        const resources = await client.listResources();
        expect(resources.resources).toEqual([
          {
            uri: 'library://opening-hours',
            name: 'opening-hours',
            title: 'Opening hours',
            description: 'When the library is open',
            mimeType: 'text/markdown',
          },
        ]);
        const templates = await client.listResourceTemplates();
        expect(templates.resourceTemplates).toEqual([
          {
            uriTemplate: 'library://books/{isbn}',
            name: 'book',
            title: 'Book record',
            description: 'The catalogue record of one book, by ISBN-13',
            mimeType: 'application/json',
          },
        ]);
        for (const result of [resources, templates]) {
          if (modern) expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
          else expect(result.ttlMs).toBeUndefined();
        }
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'readResource: the fixed resource and a template resource',
      async () => {
        const hours = await client.readResource({ uri: 'library://opening-hours' });
        expect(hours.contents).toHaveLength(1);
        expect(hours.contents[0]).toMatchObject({
          uri: 'library://opening-hours',
          mimeType: 'text/markdown',
        });
        expect(String(hours.contents[0]?.text)).toStartWith('# Opening hours\n');
        const book = await client.readResource({ uri: `library://books/${GEB}` });
        expect(book.contents[0]).toMatchObject({
          uri: `library://books/${GEB}`,
          mimeType: 'application/json',
        });
        expect(JSON.parse(String(book.contents[0]?.text))).toEqual({
          isbn: GEB,
          title: 'Gödel, Escher, Bach',
          author: 'Douglas Hofstadter',
          genre: 'science',
          year: 1979,
          available: true,
        });
        if (modern) expect(book).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
        else expect(book.ttlMs).toBeUndefined();
      },
      TEST_TIMEOUT_MS,
    );

    test(
      `readResource: a missing resource is ${modern ? '-32602' : '-32002'} with data.uri`,
      async () => {
        const error = await rejectionOf(client.readResource({ uri: NO_SUCH_BOOK }));
        expect(error).toBeInstanceOf(setup.errorClass);
        expect(error.code).toBe(modern ? -32602 : -32002);
        expect(error.data).toEqual({ uri: NO_SUCH_BOOK });
        expect(error.message).toContain('Resource not found');
        if (modern) expect(error.constructor.name).toBe('ResourceNotFoundError');
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'listPrompts and getPrompt with arguments',
      async () => {
        const prompts = await client.listPrompts();
        expect(prompts.prompts).toEqual([
          {
            name: 'recommend_books',
            title: 'Recommend books',
            description: 'Ask for reading suggestions from the catalogue for a genre',
            arguments: [
              { name: 'genre', description: 'fiction, history or science', required: true },
              { name: 'reader', description: 'Who the books are for, e.g. "a curious teenager"' },
            ],
          },
        ]);
        if (modern) expect(prompts).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
        const prompt = await client.getPrompt({
          name: 'recommend_books',
          arguments: { genre: 'science', reader: 'a curious teenager' },
        });
        expect(prompt.description).toBe('Recommendations from the science shelf');
        expect(prompt.messages).toHaveLength(1);
        expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
        const text = String((prompt.messages[0]?.content as Json).text);
        expect(text).toStartWith('Recommend two science books for a curious teenager from this shelf');
        expect(text).toContain('Gödel, Escher, Bach by Douglas Hofstadter');
        expect(text).not.toContain('Dune');
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'getPrompt without a required argument is a -32602 error naming it',
      async () => {
        const error = await rejectionOf(
          client.getPrompt({ name: 'recommend_books', arguments: { reader: 'me' } }),
        );
        expect(error).toBeInstanceOf(setup.errorClass);
        expect(error.code).toBe(-32602);
        expect(error.message).toContain('"genre"');
        expect(error.data).toEqual({ missing: ['genre'] });
      },
      TEST_TIMEOUT_MS,
    );

    test(
      'complete: a prompt argument and a template variable',
      async () => {
        const genre = await client.complete({
          ref: { type: 'ref/prompt', name: 'recommend_books' },
          argument: { name: 'genre', value: 'hi' },
        });
        expect(genre.completion).toEqual({ values: ['history'], total: 1 });
        const isbn = await client.complete({
          ref: { type: 'ref/resource', uri: 'library://books/{isbn}' },
          argument: { name: 'isbn', value: '97804' },
        });
        expect(isbn.completion).toEqual({ values: [DUNE, GEB], total: 2 });
        const none = await client.complete({
          ref: { type: 'ref/prompt', name: 'recommend_books' },
          argument: { name: 'genre', value: 'poetry' },
        });
        expect(none.completion.values).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );

    if (!modern) {
      test(
        'ping and setLoggingLevel answer {} (legacy era)',
        async () => {
          expect(await client.ping()).toEqual({});
          expect(await client.setLoggingLevel('debug')).toEqual({});
          const error = await rejectionOf(client.setLoggingLevel('loud'));
          expect(error).toBeInstanceOf(V1McpError);
          expect(error.code).toBe(-32602);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'withdraw_book cannot ask for confirmation in the legacy era: an isError result says so',
        async () => {
          const result = await client.callTool({ name: 'withdraw_book', arguments: { isbn: HAWKING } });
          expect(result.isError).toBe(true);
          expect(textOf(result)).toContain('needs protocol revision 2026-07-28');
          const book = await client.readResource({ uri: `library://books/${HAWKING}` });
          expect(book.contents).toHaveLength(1);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'the wire: initialize without MCP-Protocol-Version, then 2025-11-25 on every request; no session id',
        () => {
          const [initialize, ...rest] = wire.filter((exchange) => exchange.method === 'POST');
          expect(initialize?.body?.method).toBe('initialize');
          expect(initialize?.headers.get('mcp-protocol-version')).toBeNull();
          expect(rest.length).toBeGreaterThan(10);
          for (const exchange of rest) {
            expect(exchange.headers.get('mcp-protocol-version')).toBe('2025-11-25');
            // v1 sends no mirrored headers; the legacy rules do not ask for them.
            expect(exchange.headers.get('mcp-method')).toBeNull();
          }
          expect(postsOf(wire, 'notifications/initialized').map((e) => e.status)).toEqual([202]);
          // The v1 client opens a GET stream after initialize; the server offers none (405).
          const gets = wire.filter((exchange) => exchange.method === 'GET');
          expect(gets.map((e) => [e.status, e.headers.get('accept')])).toEqual([[405, 'text/event-stream']]);
          for (const exchange of wire) expect(exchange.responseHeaders.get('mcp-session-id')).toBeNull();
        },
        TEST_TIMEOUT_MS,
      );
    }

    if (modern) {
      test(
        'the v2 client serves a repeated list from its cache within ttlMs (nothing on the wire)',
        async () => {
          const before = postsOf(wire, 'prompts/list').length;
          expect(before).toBe(1);
          const again = await client.listPrompts();
          expect(again.prompts.map((p) => p.name)).toEqual(['recommend_books']);
          expect(postsOf(wire, 'prompts/list')).toHaveLength(before);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'withdraw_book: input-required round trip through the client elicitation handler (accept)',
        async () => {
          elicitor.answers.push({ action: 'accept', content: { confirm: true } });
          const result = await client.callTool({
            name: 'withdraw_book',
            arguments: { isbn: HAWKING, reason: 'worn out' },
          });
          expect(textOf(result)).toBe('Withdrew "A Brief History of Time" (worn out)');
          expect(result.isError).toBeUndefined();
          expect(elicitor.asked).toEqual([
            {
              mode: 'form',
              message: 'Withdraw "A Brief History of Time" from the catalogue? This cannot be undone.',
              requestedSchema: {
                type: 'object',
                properties: { confirm: { type: 'boolean', title: 'Withdraw the book' } },
                required: ['confirm'],
              },
            },
          ]);
          const calls = postsOf(wire, 'tools/call').filter(
            (e) => (e.body?.params as Json).name === 'withdraw_book',
          );
          expect(calls).toHaveLength(2);
          const [ask, retry] = calls;
          expect(ask?.status).toBe(200);
          const interim = ask?.responseBody?.result as Json;
          expect(interim.resultType).toBe('input_required');
          expect(Object.keys(interim.inputRequests as Json)).toEqual(['confirm']);
          expect(typeof interim.requestState).toBe('string');
          // Interim results carry no cache hints (2026-07-28 "Caching").
          expect(interim.ttlMs).toBeUndefined();
          // The retry: a new id, the same arguments, the answers and the state echoed byte for byte.
          const params = retry?.body?.params as Json;
          expect(retry?.body?.id).not.toBe(ask?.body?.id);
          expect(params.arguments).toEqual({ isbn: HAWKING, reason: 'worn out' });
          expect(params.requestState).toBe(interim.requestState);
          expect(params.inputResponses).toEqual({
            confirm: { action: 'accept', content: { confirm: true } },
          });
          expect((retry?.responseBody?.result as Json).resultType).toBe('complete');
          // The book is gone.
          const error = await rejectionOf(client.readResource({ uri: `library://books/${HAWKING}` }));
          expect((error as { code?: unknown }).code).toBe(-32602);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'withdraw_book: a declined elicitation keeps the book',
        async () => {
          elicitor.answers.push({ action: 'decline' });
          const result = await client.callTool({ name: 'withdraw_book', arguments: { isbn: HISTORIES } });
          expect(textOf(result)).toBe('Kept "The Histories" in the catalogue');
          const book = await client.readResource({ uri: `library://books/${HISTORIES}` });
          expect(JSON.parse(String(book.contents[0]?.text))).toMatchObject({ isbn: HISTORIES });
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'withdraw_book from a client without the elicitation capability fails with -32021',
        async () => {
          const bare: Exchange[] = [];
          const other = await setup.connect(url, recordingFetch(bare));
          try {
            const error = await rejectionOf(
              other.client.callTool({ name: 'withdraw_book', arguments: { isbn: GEB } }),
            );
            expect(error).toBeInstanceOf(ProtocolError);
            expect(error.code).toBe(-32021);
            expect(error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
            expect(error.constructor.name).toBe('MissingRequiredClientCapabilityError');
            const [call] = postsOf(bare, 'tools/call');
            expect(call?.status).toBe(400);
            expect((call?.body?.params as Json)._meta).toMatchObject({
              'io.modelcontextprotocol/clientCapabilities': {},
            });
          } finally {
            await other.client.close();
          }
          // Nothing was withdrawn.
          const book = await client.readResource({ uri: `library://books/${GEB}` });
          expect(book.contents).toHaveLength(1);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'the v2 client refuses ping and logging/setLevel in the modern era without sending them',
        async () => {
          const sent = wire.length;
          for (const call of [client.ping(), client.setLoggingLevel('debug')]) {
            const error = await rejectionOf(call);
            expect(error).toBeInstanceOf(SdkError);
            expect(error.code).toBe('METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION');
          }
          expect(wire).toHaveLength(sent);
        },
        TEST_TIMEOUT_MS,
      );

      test(
        'the wire: 2026-07-28, Mcp-Method and Mcp-Name mirrored on every request; no session id',
        () => {
          const posts = wire.filter((exchange) => exchange.method === 'POST');
          expect(posts.length).toBeGreaterThan(15);
          expect(wire.filter((exchange) => exchange.method !== 'POST')).toEqual([]);
          for (const { headers, body, responseHeaders, status } of posts) {
            const params = (body?.params ?? {}) as Json;
            expect(headers.get('mcp-protocol-version')).toBe('2026-07-28');
            expect((params._meta as Json)['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
            expect(headers.get('mcp-method')).toBe(String(body?.method));
            const named =
              body?.method === 'resources/read'
                ? params.uri
                : body?.method === 'tools/call' || body?.method === 'prompts/get'
                  ? params.name
                  : null;
            expect(headers.get('mcp-name')).toBe(named as string | null);
            expect(responseHeaders.get('mcp-session-id')).toBeNull();
            expect(responseHeaders.get('content-type')).toBe('application/json');
            expect(status).toBe(200);
          }
        },
        TEST_TIMEOUT_MS,
      );
    }
  });
}

describe('v1 client under real Node (fixtures/node-v1-client.mjs)', () => {
  test(
    'connects at 2025-11-25 and lists, calls, reads and gets against the Bun-served example',
    async () => {
      const { server, url } = await startServer();
      try {
        const child = Bun.spawn(['node', join(import.meta.dir, 'fixtures', 'node-v1-client.mjs'), url.href], {
          stdout: 'pipe',
          stderr: 'pipe',
        });
        const [stdout, stderr, exitCode] = await Promise.all([
          new Response(child.stdout).text(),
          new Response(child.stderr).text(),
          child.exited,
        ]);
        expect(stderr).toBe('');
        expect(exitCode).toBe(0);
        const out = JSON.parse(stdout) as Record<string, Json & { ok?: Json; error?: Json }>;
        expect(out.runtime).toMatchObject({ bun: null });
        expect(String(out.runtime?.node)).toMatch(/^\d+\.\d+\.\d+$/);
        expect(out.protocolVersion as unknown).toBe('2025-11-25');
        expect(out.sessionId as unknown).toBeNull();
        expect(out.serverInfo).toEqual({
          name: 'library-catalogue',
          title: 'Library catalogue',
          version: '1.0.0',
        });
        expect(out.capabilities).toEqual({
          logging: {},
          completions: {},
          prompts: {},
          resources: {},
          tools: {},
        });
        expect(out.tools as unknown).toEqual(['list_books', 'search_books', 'borrow_book', 'withdraw_book']);
        expect(out.search?.ok?.structuredContent).toMatchObject({
          total: 1,
          books: [{ title: 'Pride and Prejudice' }],
        });
        expect(out.invalid?.error).toMatchObject({ name: 'McpError', code: -32602 });
        expect(String(out.invalid?.error?.message)).toContain('arguments.query');
        expect(out.borrow?.ok?.isError).toBeUndefined();
        expect(out.borrowAgain?.ok).toMatchObject({ isError: true, structuredContent: { available: false } });
        const record = (out.resource?.ok?.contents as { text: string }[])[0];
        expect(JSON.parse(String(record?.text))).toMatchObject({ isbn: HISTORIES, available: false });
        expect(out.missing?.error).toMatchObject({ code: -32002, data: { uri: NO_SUCH_BOOK } });
        const message = (out.prompt?.ok?.messages as { content: { text: string } }[])[0];
        expect(message?.content.text).toContain('The Histories by Herodotus');
        expect(out.ping?.ok).toEqual({});
      } finally {
        await server.close(1_000);
      }
    },
    NODE_TIMEOUT_MS,
  );
});
