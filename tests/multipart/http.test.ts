/**
 * The upload suite over real HTTP on 127.0.0.1: the upload app served by `@charter/bun` and by
 * `@charter/node` (`node:http` as this Bun process implements it), requests made with `fetch` and FormData.
 */
import { afterAll, beforeAll, describe } from 'bun:test';
import { serve as serveBun } from '@charter/bun';
import { serve as serveNode } from '@charter/node';
import { uploadApp } from './support/upload-app.ts';
import { type Send, uploadSuite } from './support/upload-suite.ts';

interface Running {
  base: string;
  close: () => Promise<void>;
}

const adapters: Record<string, () => Promise<Running>> = {
  '@charter/bun': async () => {
    const server = await serveBun(uploadApp(), { port: 0, signals: false });
    return { base: `http://127.0.0.1:${server.port}`, close: () => server.close(1000) };
  },
  '@charter/node': async () => {
    const server = await serveNode(uploadApp(), { port: 0, signals: false });
    return { base: `http://127.0.0.1:${server.port}`, close: () => server.close(1000) };
  },
};

for (const [name, start] of Object.entries(adapters)) {
  describe(`multipart uploads over ${name}`, () => {
    let running: Running | undefined;
    beforeAll(async () => {
      running = await start();
    });
    afterAll(async () => {
      await running?.close();
    });
    const send: Send = (path, init) => fetch(`${running?.base}${path}`, init);
    uploadSuite(() => send);
  });
}
