/** Starts the app on Deno: `deno task start` (PORT, default 8000; HOST, default 127.0.0.1). */
import { serve } from 'charter/deno';
import { createApp } from './app.ts';

const server = serve(createApp(), {
  port: Number(Deno.env.get('PORT') ?? 8000),
  hostname: Deno.env.get('HOST') ?? '127.0.0.1',
});
await server.ready;
console.log(`{{name}} listening on ${server.url}; try ${server.url}/hello/world`);
