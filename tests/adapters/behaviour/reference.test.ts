/**
 * The behaviour suite's reference runs: in process through `app.fetch`, and over HTTP through
 * `charter/bun`. Every other adapter must answer as these do. The app comes from the built package.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { serve } from 'charter/bun';
import { createBehaviourApp } from './app.ts';
import { type BehaviourTarget, behaviourChecks, runBehaviourChecks } from './checks.ts';
import { describeBehaviour } from './bun.ts';

const inProcess = createBehaviourApp();
describeBehaviour('app.fetch (in process)', () => ({
  baseUrl: 'http://charter.local',
  fetch: (request) => inProcess.fetch(request),
}));

let server: Awaited<ReturnType<typeof serve>> | undefined;
let bunTarget: BehaviourTarget | undefined;
beforeAll(async () => {
  server = await serve(createBehaviourApp(), { port: 0, signals: false });
  bunTarget = { baseUrl: server.url, fetch: (request) => fetch(request) };
});
afterAll(() => server?.close(100));

describeBehaviour('charter/bun', () => {
  if (bunTarget === undefined) throw new Error('the Bun server did not start');
  return bunTarget;
});

describe('the behaviour suite itself', () => {
  test('every check fails against a server that answers 200 {} to everything', async () => {
    const results = await runBehaviourChecks({
      baseUrl: 'http://charter.local',
      fetch: async () => new Response('{}', { headers: { 'content-type': 'application/json' } }),
    });
    expect(results.length).toBe(behaviourChecks.length);
    expect(results.filter((result) => result.ok)).toEqual([]);
    for (const result of results) expect(result.error).toBeString();
  });

  test('runBehaviourChecks reports every check as passed against app.fetch', async () => {
    const app = createBehaviourApp();
    const results = await runBehaviourChecks({ baseUrl: 'http://charter.local', fetch: (r) => app.fetch(r) });
    expect(results).toEqual(behaviourChecks.map((check) => ({ name: check.name, ok: true })));
  }, 30_000);
});
