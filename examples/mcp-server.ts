/**
 * A tool server (MCP) for a small library catalogue: four tools, a fixed resource, a resource
 * template, a prompt with completions, instructions and cache hints, served on one Streamable HTTP
 * endpoint for both protocol eras. Run it with `bun examples/mcp-server.ts` (PORT, default 3000)
 * and point an MCP client at http://127.0.0.1:3000/mcp. tests/mcp/sdk-clients.test.ts drives it
 * with both official TypeScript clients.
 */
import { type } from 'arktype';
import { App, type AppOptions } from 'charter';
import {
  createMcpHandler,
  defineMcpTool,
  inputRequired,
  type McpCacheHints,
  McpToolError,
  mcpRoutes,
} from 'charter/mcp';
import { serve } from 'charter/bun';

/** The genres the catalogue files books under. */
export const GENRES = ['fiction', 'history', 'science'] as const;

/** A book as the tools return it. */
export const Book = type({
  isbn: /^[0-9]{13}$/,
  title: 'string',
  author: 'string',
  genre: "'fiction' | 'history' | 'science'",
  year: 'number.integer',
});

/** `search_books` arguments: declared with arktype, so the handler's `args` is typed. */
export const SearchBooksInput = type({
  query: '1 <= string <= 100',
  'genre?': "'fiction' | 'history' | 'science'",
  'limit?': '1 <= number.integer <= 20',
});

/** `search_books` structured result. */
export const SearchBooksOutput = type({ total: 'number.integer >= 0', books: Book.array() });

/** `withdraw_book` arguments. */
export const WithdrawBookInput = type({ isbn: /^[0-9]{13}$/, 'reason?': 'string <= 200' });

/** `list_books` arguments as plain JSON Schema: nothing is required, so `{}` lists everything. */
export const LIST_BOOKS_INPUT = {
  type: 'object',
  properties: {
    genre: { type: 'string', enum: [...GENRES], description: 'Only books of this genre' },
  },
  additionalProperties: false,
} as const;

/** `borrow_book` arguments as plain JSON Schema. */
export const BORROW_BOOK_INPUT = {
  type: 'object',
  properties: {
    isbn: { type: 'string', pattern: '^[0-9]{13}$', description: 'The ISBN-13 of the book' },
    member: { type: 'string', minLength: 1, maxLength: 64, description: 'The library card holder' },
  },
  required: ['isbn', 'member'],
  additionalProperties: false,
} as const;

const CATALOGUE: readonly (typeof Book.infer)[] = [
  { isbn: '9780441172719', title: 'Dune', author: 'Frank Herbert', genre: 'fiction', year: 1965 },
  {
    isbn: '9780141439518',
    title: 'Pride and Prejudice',
    author: 'Jane Austen',
    genre: 'fiction',
    year: 1813,
  },
  { isbn: '9780393317558', title: 'The Histories', author: 'Herodotus', genre: 'history', year: -430 },
  {
    isbn: '9780553380163',
    title: 'A Brief History of Time',
    author: 'Stephen Hawking',
    genre: 'science',
    year: 1988,
  },
  {
    isbn: '9780465026562',
    title: 'Gödel, Escher, Bach',
    author: 'Douglas Hofstadter',
    genre: 'science',
    year: 1979,
  },
];

const OPENING_HOURS = `# Opening hours

| Day | Hours |
| --- | --- |
| Monday to Friday | 09:00-19:00 |
| Saturday | 10:00-16:00 |
| Sunday | closed |
`;

/** Options of `createMcpExampleApp`. */
export interface McpExampleOptions {
  /**
   * Cache hints of modern list and read results. Default `{ ttlMs: 60000, scope: 'public' }`: every
   * caller sees the same catalogue.
   */
  cache?: McpCacheHints;
  /** Secret that seals input-required state. Default: a random key per process (right for one instance). */
  requestStateKey?: string;
  /** Options of the App (`logger: false` in tests). Default none. */
  app?: AppOptions;
}

function bookLine(book: typeof Book.infer): string {
  return `${book.title} by ${book.author} (${book.year}), ISBN ${book.isbn}`;
}

/** The library catalogue tool server, mounted at `/mcp` on a new App. Each call has its own loans. */
export function createMcpExampleApp(options: McpExampleOptions = {}): App {
  const books = new Map(CATALOGUE.map((book) => [book.isbn, book]));
  const loans = new Map<string, string>();

  // First in the list on purpose: a read-only tool that answers `{}` (the conformance suite's
  // header-validation scenario calls the first tool with no arguments).
  const listBooks = defineMcpTool({
    name: 'list_books',
    title: 'List books',
    description: 'List every book in the catalogue, optionally of one genre',
    inputSchema: LIST_BOOKS_INPUT,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: (args) => {
      const found = [...books.values()].filter(
        (book) => args.genre === undefined || book.genre === args.genre,
      );
      return {
        content: [{ type: 'text', text: found.map(bookLine).join('\n') || 'No books.' }],
        structuredContent: { books: found },
      };
    },
  });

  const searchBooks = defineMcpTool({
    name: 'search_books',
    title: 'Search books',
    description: 'Find books whose title or author contains the query (case-insensitive)',
    inputSchema: SearchBooksInput,
    outputSchema: SearchBooksOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ query, genre, limit }) => {
      const needle = query.toLowerCase();
      const found = [...books.values()].filter(
        (book) =>
          (genre === undefined || book.genre === genre) &&
          (book.title.toLowerCase().includes(needle) || book.author.toLowerCase().includes(needle)),
      );
      // Without `content`, the module sends the JSON of structuredContent as the text block.
      return { structuredContent: { total: found.length, books: found.slice(0, limit ?? 10) } };
    },
  });

  const borrowBook = defineMcpTool({
    name: 'borrow_book',
    title: 'Borrow a book',
    description: 'Lend a book to a library member',
    inputSchema: BORROW_BOOK_INPUT,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    handler: (args) => {
      const isbn = args.isbn as string;
      const member = args.member as string;
      const book = books.get(isbn);
      // McpToolError: the model reads the message (isError: true) and may correct itself.
      if (book === undefined) throw new McpToolError(`No book has the ISBN ${isbn}; try search_books first`);
      if (loans.has(isbn)) {
        throw new McpToolError(`"${book.title}" is already on loan`, {
          structuredContent: { isbn, available: false },
        });
      }
      loans.set(isbn, member);
      return {
        content: [{ type: 'text', text: `Lent "${book.title}" to ${member}` }],
        structuredContent: { isbn, member, available: false },
      };
    },
  });

  const withdrawBook = defineMcpTool({
    name: 'withdraw_book',
    title: 'Withdraw a book',
    description: 'Remove a book from the catalogue for good, after a person confirms',
    inputSchema: WithdrawBookInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    handler: ({ isbn, reason }, ctx) => {
      const book = books.get(isbn);
      if (book === undefined) throw new McpToolError(`No book has the ISBN ${isbn}`);
      // Asking the person happens through an input-required result, which only 2026-07-28 has.
      if (ctx.era === 'legacy') {
        throw new McpToolError(
          'withdraw_book asks a person to confirm, which needs protocol revision 2026-07-28',
        );
      }
      const answer = ctx.inputResponses?.confirm as
        | { action?: string; content?: { confirm?: unknown } }
        | undefined;
      if (answer === undefined || ctx.requestState === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: `Withdraw "${book.title}" from the catalogue? This cannot be undone.`,
                requestedSchema: {
                  type: 'object',
                  properties: { confirm: { type: 'boolean', title: 'Withdraw the book' } },
                  required: ['confirm'],
                },
              },
            },
          },
          // Sealed by the module and bound to this call: it comes back verified on the retry.
          requestState: { isbn, askedAt: Date.now() },
        });
      }
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return `Kept "${book.title}" in the catalogue`;
      }
      books.delete(isbn);
      loans.delete(isbn);
      return `Withdrew "${book.title}"${reason === undefined ? '' : ` (${reason})`}`;
    },
  });

  const isbnsStartingWith = (prefix: string) =>
    [...books.keys()].filter((isbn) => isbn.startsWith(prefix)).sort();

  const handler = createMcpHandler({
    serverInfo: { name: 'library-catalogue', version: '1.0.0', title: 'Library catalogue' },
    instructions:
      'A small library catalogue. Use list_books or search_books to find a book, borrow_book to lend ' +
      'it, and read library://books/{isbn} for one record. withdraw_book asks a person to confirm.',
    tools: [listBooks, searchBooks, borrowBook, withdrawBook],
    resources: [
      {
        uri: 'library://opening-hours',
        name: 'opening-hours',
        title: 'Opening hours',
        description: 'When the library is open',
        mimeType: 'text/markdown',
        read: () => OPENING_HOURS,
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: 'library://books/{isbn}',
        name: 'book',
        title: 'Book record',
        description: 'The catalogue record of one book, by ISBN-13',
        mimeType: 'application/json',
        complete: { isbn: (value) => isbnsStartingWith(value) },
        // null: no such book, answered as "resource not found".
        read: (_uri, { isbn }) => {
          // The template has the one variable, so `isbn` is always there; the index type cannot say so.
          const book = isbn === undefined ? undefined : books.get(isbn);
          return book === undefined ? null : JSON.stringify({ ...book, available: !loans.has(book.isbn) });
        },
      },
    ],
    prompts: [
      {
        name: 'recommend_books',
        title: 'Recommend books',
        description: 'Ask for reading suggestions from the catalogue for a genre',
        arguments: [
          {
            name: 'genre',
            description: 'fiction, history or science',
            required: true,
            complete: (value) => GENRES.filter((genre) => genre.startsWith(value)),
          },
          { name: 'reader', description: 'Who the books are for, e.g. "a curious teenager"' },
        ],
        get: ({ genre, reader }) => {
          const shelf = [...books.values()].filter((book) => book.genre === genre);
          const audience = reader === undefined ? '' : ` for ${reader}`;
          const ask = `Recommend two ${genre} books${audience} from this shelf and say why:`;
          return {
            description: `Recommendations from the ${genre} shelf`,
            messages: [
              {
                role: 'user',
                content: {
                  type: 'text',
                  text: [ask, ...shelf.map(bookLine)].join('\n'),
                },
              },
            ],
          };
        },
      },
    ],
    // The catalogue is the same for every caller: clients may share these results for a minute.
    cache: options.cache ?? { ttlMs: 60_000, scope: 'public' },
    requestStateKey: options.requestStateKey,
  });

  const app = new App({ title: 'Library catalogue (MCP example)', version: '1.0.0', ...options.app });
  // `public: true` serves without authentication. A real deployment puts an authenticating hook
  // here instead, e.g. `{ hooks: bearer({ verify }) }` (see content/docs/tool-server.md).
  app.registerRoutes(mcpRoutes('/mcp', handler, { public: true }));
  return app;
}

if (import.meta.main) {
  const server = await serve(createMcpExampleApp(), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  console.log(`Library catalogue MCP server at ${server.url}/mcp`);
  console.log(`Try: npx @modelcontextprotocol/inspector --cli ${server.url}/mcp --method tools/list`);
}
