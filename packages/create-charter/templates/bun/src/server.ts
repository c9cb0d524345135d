/** Starts the app on Bun: `bun src/server.ts` (PORT, default 3000; HOST, default 127.0.0.1). */
import { serve } from 'charter/bun';
import { createApp } from './app.ts';

const server = await serve(createApp(), {
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? '127.0.0.1',
});
console.log(`{{name}} listening on ${server.url}; try ${server.url}/hello/world`);
