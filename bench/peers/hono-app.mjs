/**
 * The Hono 4 app of the peers benchmark, the same on Bun (`hono-bun.ts`) and Node (`hono-node.mjs`), as
 * Hono users write it: zod schemas through `@hono/standard-validator` on the params
 * (`z.coerce.number().int()`, since path params are text) and the JSON body, `c.json()` answers. Hono
 * validates no response (its response types are compile-time only). Unknown paths: Hono's text 404.
 */
import { sValidator } from '@hono/standard-validator';
import { Hono } from 'hono';
import { z } from 'zod';

const UserParams = z.object({ id: z.coerce.number().int() });
const Echo = z.object({
  name: z.string().min(1),
  age: z.number().int().min(0),
  tags: z.array(z.string()),
});

export function honoApp() {
  const app = new Hono();
  app.get('/static', (c) => c.json({ message: 'Hello, World!' }));
  app.get('/users/:id', sValidator('param', UserParams), (c) => {
    const { id } = c.req.valid('param');
    return c.json({ id, name: `user ${id}` });
  });
  app.post('/echo', sValidator('json', Echo), (c) => c.json(c.req.valid('json')));
  return app;
}
