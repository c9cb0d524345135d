/**
 * Fastify 5 on Node, as its users write it: JSON Schema on params, body and the 200 response of each
 * route (requests validated by ajv, which coerces the `id` text to an integer; responses serialised by
 * fast-json-stringify from the schema, which shapes the output but does not validate it), async
 * handlers returning objects, `logger: false`. Unknown paths: Fastify's JSON 404.
 *
 *   node bench/peers/fastify.mjs <port>
 */
import Fastify from 'fastify';
import { announce, HOSTNAME, portArg } from './lifecycle.mjs';

const Static = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
};
const UserParams = {
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
};
const User = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id', 'name'],
};
const Echo = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'age', 'tags'],
};

const app = Fastify({ logger: false });

app.get('/static', { schema: { response: { 200: Static } } }, async () => ({ message: 'Hello, World!' }));

app.get('/users/:id', { schema: { params: UserParams, response: { 200: User } } }, async (request) => {
  const { id } = request.params;
  return { id, name: `user ${id}` };
});

app.post('/echo', { schema: { body: Echo, response: { 200: Echo } } }, async (request) => request.body);

await app.listen({ port: portArg(), host: HOSTNAME });
announce(app.server.address().port, () => app.close());
