/**
 * The to-do API of examples/typed-client.ts, shared by the server (which runs the handlers) and the
 * browser script (whose typed client reads the routes: paths, methods, schemas; it never runs a
 * handler). The registrations are chained, so the App's type records every operation.
 */
import { type } from 'arktype';
import { App, NotFoundError } from 'charter';

export const Todo = type({ id: 'number.integer', title: '0 < string <= 200', done: 'boolean' });

/** The API; the to-dos live in memory. */
export function createTodoApi() {
  const todos = new Map<number, typeof Todo.infer>();
  let nextId = 1;
  return new App({ title: 'Typed client example', version: '1.0.0' })
    .get('/api/todos', { operationId: 'listTodos', responses: { 200: { body: Todo.array() } } }, () => ({
      status: 200,
      body: [...todos.values()],
    }))
    .post(
      '/api/todos',
      {
        operationId: 'createTodo',
        request: { body: type({ title: '0 < string <= 200' }) },
        responses: { 201: { body: Todo } },
      },
      (ctx) => {
        const todo = { id: nextId++, title: ctx.body.title, done: false };
        todos.set(todo.id, todo);
        return { status: 201, body: todo, headers: { location: `/api/todos/${todo.id}` } };
      },
    )
    .patch(
      '/api/todos/:id',
      {
        operationId: 'setDone',
        request: { params: type({ id: 'number.integer' }), body: type({ done: 'boolean' }) },
        responses: { 200: { body: Todo }, 404: {} },
      },
      (ctx) => {
        const todo = todos.get(ctx.params.id);
        if (todo === undefined) throw new NotFoundError(`No to-do ${ctx.params.id}`);
        todo.done = ctx.body.done;
        return { status: 200, body: todo };
      },
    );
}

/** The API's type: what the client is typed from. */
export type TodoApi = ReturnType<typeof createTodoApi>;
