/**
 * On Node, `Headers`, `Request`, `Response` and `FormData` are undici's, loaded the first time any of
 * them is named (or node:http is imported as an ES module: its lazy `WebSocket` export is undici's),
 * about 35 ms of a server's start. charter/node keeps them out of a server whose user code never asks
 * for a web object, and hands user code the real ones when it does. Each case is a fresh Node 24
 * process (fixtures/node-web-classes.mjs) importing the built package by name, serving over real
 * sockets and reporting, as one JSON line, its answers and whether undici was loaded after each step.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { node24 } from './fixtures/node24.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}
interface Report {
  version: string;
  loadedAfter: Record<'import' | 'routes' | 'listening' | 'requests' | 'web', boolean>;
  answers: Record<string, Answer>;
  seen: { onSendResponse?: boolean; onSendContentType?: string };
}

const FIXTURE = join(import.meta.dir, 'fixtures', 'node-web-classes.mjs');

async function run(mode: 'plain' | 'web'): Promise<Report> {
  const child = Bun.spawn([node24().path, FIXTURE, mode], {
    cwd: join(import.meta.dir, 'fixtures'),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`the Node 24 fixture exited with ${code}:\n${err}`);
  return JSON.parse(out) as Report;
}

/** The secure defaults' fields every answer carries, as the other Node tests check them. */
function expectSecureDefaults(answer: Answer): void {
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['content-security-policy']).toStartWith("default-src 'none'");
}

describe('charter/node without the web classes (real Node 24)', () => {
  test('a JSON app never loads undici: import, routes, listen, 200s, a 422 and a 404', async () => {
    const report = await run('plain');
    expect(report.version).toStartWith('v24.');
    expect(report.loadedAfter).toEqual({
      import: false,
      routes: false,
      listening: false,
      requests: false,
      web: false,
    });
    const { static: hello, user, echo, invalid, missing } = report.answers as Record<string, Answer>;
    expect(hello?.status).toBe(200);
    expect(hello?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hello?.text ?? '')).toEqual({ message: 'Hello, World!' });
    expect(user?.status).toBe(200);
    expect(JSON.parse(user?.text ?? '')).toEqual({ id: 42, name: 'user 42' });
    expect(echo?.status).toBe(200);
    expect(JSON.parse(echo?.text ?? '')).toEqual({ name: 'Ada', age: 36 });
    expect(invalid?.status).toBe(422);
    expect(invalid?.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(invalid?.text ?? '').type).toBe('https://charter.dev/errors/validation');
    expect(missing?.status).toBe(404);
    expect(missing?.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(missing?.text ?? '')).toMatchObject({ status: 404, title: 'Not Found' });
    for (const answer of [hello, user, echo, invalid, missing]) expectSecureDefaults(answer as Answer);
  }, 60_000);

  test('user code that asks gets the real classes: ctx.request, its headers, the Response an onSend hook sees', async () => {
    const report = await run('web');
    // Nothing before the route that asks...
    expect(report.loadedAfter.requests).toBe(false);
    // ...which then has them, web objects all the way.
    expect(report.loadedAfter.web).toBe(true);
    const web = report.answers.web as Answer;
    expect(web.status).toBe(200);
    expect(web.headers['content-type']).toBe('application/json');
    expectSecureDefaults(web);
    expect(JSON.parse(web.text)).toEqual({ request: true, headers: true, agent: 'web-classes-check' });
    expect(report.seen).toEqual({ onSendResponse: true, onSendContentType: 'application/json' });
    // The answers before it are unchanged by the route that asks.
    expect(JSON.parse(report.answers.static?.text ?? '')).toEqual({ message: 'Hello, World!' });
  }, 60_000);
});
