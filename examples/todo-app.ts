/**
 * A small Charter app: a to-do list with full contract validation, its OpenAPI document and a docs
 * page. Run it with `bun examples/todo-app.ts` (PORT, default 3000; HOST, default 127.0.0.1).
 */
import { type } from 'arktype';
import { App, type AppOptions, ConflictError, NotFoundError } from 'charter';
import { serve } from 'charter/bun';

const Todo = type({ id: 'number.integer', title: 'string', done: 'boolean' });
const NewTodo = type({ title: '0 < string <= 200', 'done?': 'boolean' });

/** The to-do app; `options` are added to its App options (e.g. `{ docs: true }`). */
export function createExampleApp(options: AppOptions = {}): App {
  const todos = new Map<number, typeof Todo.infer>();
  let nextId = 1;
  const app = new App({ title: 'Todo example', version: '1.0.0', ...options });

  app.get(
    '/todos',
    {
      operationId: 'listTodos',
      request: { query: type({ 'done?': 'boolean', 'limit?': '1 <= number.integer <= 100' }) },
      responses: { 200: { body: Todo.array() } },
    },
    (ctx) => {
      const all = [...todos.values()].filter(
        (t) => ctx.query.done === undefined || t.done === ctx.query.done,
      );
      return { status: 200, body: all.slice(0, ctx.query.limit ?? 20) };
    },
  );

  app.post(
    '/todos',
    { operationId: 'createTodo', request: { body: NewTodo }, responses: { 201: { body: Todo }, 409: {} } },
    (ctx) => {
      if ([...todos.values()].some((t) => t.title === ctx.body.title))
        throw new ConflictError('That to-do exists');
      const todo = { id: nextId++, title: ctx.body.title, done: ctx.body.done ?? false };
      todos.set(todo.id, todo);
      return { status: 201, body: todo, headers: { location: `/todos/${todo.id}` } };
    },
  );

  app.get(
    '/todos/:id',
    {
      operationId: 'getTodo',
      request: { params: type({ id: 'number.integer' }) },
      responses: { 200: { body: Todo }, 404: {} },
    },
    (ctx) => {
      const todo = todos.get(ctx.params.id);
      if (todo === undefined) throw new NotFoundError(`No to-do ${ctx.params.id}`);
      return { status: 200, body: todo };
    },
  );

  app.healthcheck();
  return app;
}

if (import.meta.main) {
  const server = await serve(createExampleApp({ docs: true }), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`To-do API listening on ${url}
Try:
  curl -X POST ${url}/todos -H 'content-type: application/json' -d '{"title":"Read the docs"}'
  curl ${url}/todos
  curl ${url}/todos/abc        # 422: params.id must be an integer
  open ${url}/docs             # the interactive docs page, ${url}/openapi.json for the document`);
}
