/**
 * A CRUD API over SQLite (`bun:sqlite`): books you can list a page at a time, create, read, replace
 * and delete. Every route declares its request and responses, so bad input is a 422 problem and the
 * OpenAPI document at /openapi.json describes it all. Run it with `bun examples/crud-sqlite.ts`
 * (PORT, default 3000; HOST, default 127.0.0.1; DB, the SQLite file, default in memory).
 */
import { Database } from 'bun:sqlite';
import { type } from 'arktype';
import { App, ConflictError, NotFoundError } from 'charter';
import { serve } from 'charter/bun';

const Book = type({
  id: 'number.integer',
  title: '0 < string <= 200',
  author: '0 < string <= 100',
  year: 'number.integer',
});
const BookInput = type({
  title: '0 < string <= 200',
  author: '0 < string <= 100',
  year: '0 < number.integer <= 3000',
});
const BookId = type({ id: 'number.integer > 0' });

type BookRow = typeof Book.infer;

/** The books API on `db` (the table is created when missing). */
export function createBooksApp(db: Database = new Database(':memory:')) {
  db.run(`create table if not exists books (
    id integer primary key autoincrement,
    title text not null unique,
    author text not null,
    year integer not null
  )`);
  // Prepared once: every value goes in as a bound parameter, never spliced into the SQL text.
  const list = db.query<BookRow, [number, number]>(
    'select id, title, author, year from books where id > ? order by id limit ?',
  );
  const byId = db.query<BookRow, [number]>('select id, title, author, year from books where id = ?');
  const insert = db.query<BookRow, [string, string, number]>(
    'insert into books (title, author, year) values (?, ?, ?) returning id, title, author, year',
  );
  const update = db.query<BookRow, [string, string, number, number]>(
    'update books set title = ?, author = ?, year = ? where id = ? returning id, title, author, year',
  );
  const remove = db.query<{ id: number }, [number]>('delete from books where id = ? returning id');

  /** SQLite's UNIQUE constraint, as the 409 the routes declare. */
  const unique = <T>(write: () => T): T => {
    try {
      return write();
    } catch (error) {
      if (error instanceof Error && error.message.includes('UNIQUE')) {
        throw new ConflictError('A book with that title exists');
      }
      throw error;
    }
  };

  return new App({ title: 'Books (SQLite example)', version: '1.0.0', openapi: true })
    .get(
      '/books',
      {
        operationId: 'listBooks',
        summary: 'Books in id order, a page at a time',
        request: { query: type({ 'after?': 'number.integer >= 0', 'limit?': '1 <= number.integer <= 100' }) },
        responses: { 200: { body: Book.array() } },
      },
      (ctx) => ({ status: 200, body: list.all(ctx.query.after ?? 0, ctx.query.limit ?? 20) }),
    )
    .post(
      '/books',
      {
        operationId: 'createBook',
        request: { body: BookInput },
        responses: { 201: { body: Book }, 409: {} },
      },
      (ctx) => {
        const { title, author, year } = ctx.body;
        const book = unique(() => insert.get(title, author, year)) as BookRow;
        return { status: 201, body: book, headers: { location: `/books/${book.id}` } };
      },
    )
    .get(
      '/books/:id',
      { operationId: 'getBook', request: { params: BookId }, responses: { 200: { body: Book }, 404: {} } },
      (ctx) => {
        const book = byId.get(ctx.params.id);
        if (book === null) throw new NotFoundError(`No book ${ctx.params.id}`);
        return { status: 200, body: book };
      },
    )
    .put(
      '/books/:id',
      {
        operationId: 'replaceBook',
        request: { params: BookId, body: BookInput },
        responses: { 200: { body: Book }, 404: {}, 409: {} },
      },
      (ctx) => {
        const { title, author, year } = ctx.body;
        const book = unique(() => update.get(title, author, year, ctx.params.id));
        if (book === null) throw new NotFoundError(`No book ${ctx.params.id}`);
        return { status: 200, body: book };
      },
    )
    .delete(
      '/books/:id',
      {
        operationId: 'deleteBook',
        request: { params: BookId },
        responses: { 204: { description: 'Deleted' }, 404: {} },
      },
      (ctx) => {
        if (remove.get(ctx.params.id) === null) throw new NotFoundError(`No book ${ctx.params.id}`);
        return { status: 204, body: undefined };
      },
    );
}

if (import.meta.main) {
  const db = new Database(process.env.DB ?? ':memory:', { create: true, strict: true });
  const app = createBooksApp(db);
  app.onClose(() => db.close());
  const server = await serve(app, {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Books API (SQLite) listening on ${url}
Try:
  curl -i -X POST ${url}/books -H 'content-type: application/json' \\
    -d '{"title":"Dune","author":"Frank Herbert","year":1965}'
  curl ${url}/books
  curl ${url}/books/1
  curl -X PUT ${url}/books/1 -H 'content-type: application/json' \\
    -d '{"title":"Dune","author":"Frank Herbert","year":1966}'
  curl -i -X DELETE ${url}/books/1
  curl ${url}/openapi.json`);
}
