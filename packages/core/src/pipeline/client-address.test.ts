import { describe, expect, test } from 'bun:test';
import { type } from 'arktype';
import { App } from '../app/index.ts';
import { requestPeer, setRequestPeer } from './client-address.ts';

const Peer = type({ peer: 'string' });

function appReadingPeer(): App {
  const app = new App({ logger: false });
  app.get('/peer', { responses: { 200: { body: Peer } } }, (ctx) => ({
    status: 200 as const,
    body: { peer: requestPeer(ctx.request) ?? 'unknown' },
  }));
  return app;
}

describe('requestPeer', () => {
  test('answers for the ctx.request wrapper with the address the adapter recorded on the original', async () => {
    const request = new Request('http://charter.local/peer');
    setRequestPeer(request, '203.0.113.7');
    const res = await appReadingPeer().fetch(request);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ peer: '203.0.113.7' });
  });

  test('answers for the ctx.request wrapper through the adapter resolver (Bun resolves lazily)', async () => {
    const app = appReadingPeer().setPeerResolver(() => '198.51.100.2');
    const res = await app.fetch(new Request('http://charter.local/peer'));
    expect(await res.json()).toEqual({ peer: '198.51.100.2' });
  });

  test('is undefined for an in-process request no adapter saw', async () => {
    const res = await appReadingPeer().request('/peer');
    expect(await res.json()).toEqual({ peer: 'unknown' });
  });
});
