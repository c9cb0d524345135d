/**
 * The page's script (bundled by examples/typed-client.ts with Bun.build): it calls the API through
 * the typed client of `charter/client`, so `client.createTodo({ body: { title } })` is checked
 * against the route's schemas when you compile, and `res.body` is typed by status.
 */
import { createClient } from 'charter/client';
import { createTodoApi } from './api.ts';

const client = createClient(createTodoApi(), { baseUrl: location.origin });

const list = document.getElementById('todos') as HTMLUListElement;
const form = document.getElementById('new') as HTMLFormElement;
const input = document.getElementById('title') as HTMLInputElement;
const status = document.getElementById('status') as HTMLOutputElement;

async function render(): Promise<void> {
  const res = await client.listTodos();
  list.replaceChildren(
    ...res.body.map((todo) => {
      const item = document.createElement('li');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = todo.done;
      box.addEventListener('change', async () => {
        await client.setDone({ params: { id: todo.id }, body: { done: box.checked } });
        await render();
      });
      item.append(box, ` ${todo.title}`); // text, never HTML
      return item;
    }),
  );
  status.value = `${res.body.length} to-do(s)`;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const created = await client.createTodo({ body: { title: input.value } });
  status.value = `created #${created.body.id}`;
  input.value = '';
  await render();
});

await render();
