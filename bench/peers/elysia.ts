/**
 * Elysia 1.4 on Bun, as its users write it: TypeBox (`t`) schemas on params, body and the 200 response
 * of each route, Elysia's defaults otherwise (ahead-of-time compiled handlers and validators, static
 * paths handed to Bun's native routes, `t.Integer()` params coerced from the path text).
 *
 *   bun bench/peers/elysia.ts <port>
 */
import { Elysia, t } from 'elysia';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';

const Static = t.Object({ message: t.String() });
const UserParams = t.Object({ id: t.Integer() });
const User = t.Object({ id: t.Integer(), name: t.String() });
const Echo = t.Object({
  name: t.String({ minLength: 1 }),
  age: t.Integer({ minimum: 0 }),
  tags: t.Array(t.String()),
});

const app = new Elysia()
  .get('/static', () => ({ message: 'Hello, World!' }), { response: { 200: Static } })
  .get('/users/:id', ({ params: { id } }) => ({ id, name: `user ${id}` }), {
    params: UserParams,
    response: { 200: User },
  })
  .post('/echo', ({ body }) => body, { body: Echo, response: { 200: Echo } })
  .listen({ port: portArg(), hostname: HOSTNAME });

announce(app.server?.port ?? 0, () => app.stop(true));
