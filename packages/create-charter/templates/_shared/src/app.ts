/** The app: each route declares its request and its responses, and Charter holds the handler to them. */
import { App, type AppOptions, NotFoundError } from 'charter';
import { z } from 'zod';

const Todo = z.object({ id: z.int(), title: z.string().min(1).max(200), done: z.boolean() });
type Todo = z.infer<typeof Todo>;

/** A new app with its own to-do list (each test gets a fresh one); `options` are added to the App options. */
export function createApp(options: AppOptions = {}) {
  const todos = new Map<number, Todo>();
  let nextId = 1;
  return new App({ title: '{{name}}', version: '0.1.0', openapi: true, ...options })
    .get(
      '/hello/:name',
      {
        operationId: 'hello',
        request: { params: z.object({ name: z.string().max(50) }) },
        responses: { 200: { body: z.object({ greeting: z.string() }) } },
      },
      (ctx) => ({ status: 200, body: { greeting: `Hello, ${ctx.params.name}!` } }),
    )
    .post(
      '/todos',
      {
        operationId: 'createTodo',
        request: { body: z.object({ title: z.string().min(1).max(200) }) },
        responses: { 201: { body: Todo } },
      },
      (ctx) => {
        const todo = { id: nextId++, title: ctx.body.title, done: false };
        todos.set(todo.id, todo);
        return { status: 201, body: todo, headers: { location: `/todos/${todo.id}` } };
      },
    )
    .get(
      '/todos/:id',
      {
        operationId: 'getTodo',
        request: { params: z.object({ id: z.coerce.number().int() }) },
        responses: { 200: { body: Todo }, 404: {} },
      },
      (ctx) => {
        const todo = todos.get(ctx.params.id);
        if (todo === undefined) throw new NotFoundError(`No to-do ${ctx.params.id}`);
        return { status: 200, body: todo };
      },
    );
}
