/**
 * What one JSON-RPC batch (2025-03-26) may cost (issue 17, "Cost per request that the quota does not
 * see"): `maxBatchSize` members at most, `maxBatchResponseBytes` of answers, `onBatch` before any
 * member runs, `chargeBatchMembers` to count every member against a rate limit, and the lane all
 * batch members run in, one per turn of the event loop. Each through a real App with `mcpRoutes`,
 * or a bare handler where the App plays no part.
 */
import { describe, expect, test } from 'bun:test';
import { rateLimit } from '@charter/core';
import { chargeBatchMembers, createMcpHandler, defineMcpTool, type McpBatch } from '@charter/mcp';
import {
  createFixture,
  expectBatch,
  expectProblem,
  expectIdNullError,
  expectRpcResult,
  firstText,
  legacyPost,
  rpc,
} from './support.ts';

const echo = (text: string, id: number | string) =>
  rpc('tools/call', { name: 'echo', arguments: { text } }, id);
const ping = (id: number) => rpc('ping', undefined, id);
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('maxBatchSize', () => {
  test('a batch up to the cap is served; one over it is refused whole and none of it runs', async () => {
    const fx = createFixture({ handler: { maxBatchSize: 4 } });
    const served = await expectBatch(
      await legacyPost(
        fx.app,
        [1, 2, 3, 4].map((i) => echo('a', i)),
      ),
    );
    expect(served.map((answer) => answer.id)).toEqual([1, 2, 3, 4]);
    expect(fx.seen).toHaveLength(4);
    await expectIdNullError(
      await legacyPost(
        fx.app,
        [1, 2, 3, 4, 5].map((i) => echo('a', i)),
      ),
      -32600,
      'Invalid Request: a batch may carry at most 4 messages',
    );
    expect(fx.seen).toHaveLength(4);
  });

  test('0 refuses every batch, even of one message; single messages are still served', async () => {
    const fx = createFixture({ handler: { maxBatchSize: 0 } });
    await expectIdNullError(
      await legacyPost(fx.app, [echo('a', 1)]),
      -32600,
      'this server accepts no JSON-RPC batches; send one message per request',
    );
    expect(fx.seen).toHaveLength(0);
    await expectRpcResult(await legacyPost(fx.app, echo('a', 2)), 2);
    expect(fx.seen).toHaveLength(1);
  });
});

describe('maxBatchResponseBytes', () => {
  const text = 'x'.repeat(300);

  test('answers that fit are all sent, and the response stays within the cap', async () => {
    const fx = createFixture({ handler: { maxBatchResponseBytes: 4096 } });
    const res = await legacyPost(
      fx.app,
      [1, 2, 3].map((i) => echo(text, i)),
    );
    const raw = await res.clone().text();
    expect(new TextEncoder().encode(raw).length).toBeLessThanOrEqual(4096);
    const answers = await expectBatch(res);
    expect(answers.map((answer) => [answer.id, answer.error])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, undefined],
    ]);
  });

  test('past the cap, the member that crosses it and every later request answer -32000 with their ids, and later ones do not run', async () => {
    // The cap is two and a half answers: two fit, the third crosses it.
    const one = await legacyPost(createFixture().app, [echo(text, 1)]);
    const answerBytes = new TextEncoder().encode(await one.text()).length - 2;
    const cap = Math.floor(answerBytes * 2.5);
    const fx = createFixture({ handler: { maxBatchResponseBytes: cap } });
    const batch = [
      echo(text, 1),
      echo(text, 2),
      echo(text, 3),
      note,
      { jsonrpc: '2.0', id: 5 },
      echo(text, 6),
    ];
    const answers = await expectBatch(await legacyPost(fx.app, batch));
    const summary = answers.map((answer) => [
      answer.id,
      (answer.error as { code?: number } | undefined)?.code,
    ]);
    expect(summary).toEqual([
      [1, undefined],
      [2, undefined],
      [3, -32000],
      // A malformed member costs nothing to answer: it keeps its -32600.
      [5, -32600],
      [6, -32000],
    ]);
    expect(answers[2]?.error).toEqual({
      code: -32000,
      message: `Not run: the answers of this batch reached ${cap} bytes; send this request again on its own or in another batch`,
      data: { maxBatchResponseBytes: cap },
    });
    // The third ran (its answer was too big to send); the sixth never ran.
    expect(fx.seen.map((call) => call.tool)).toEqual(['echo', 'echo', 'echo']);
  });

  test('a single message is not capped', async () => {
    const fx = createFixture({ handler: { maxBatchResponseBytes: 100 } });
    const result = await expectRpcResult(await legacyPost(fx.app, echo(text, 1)), 1);
    expect(firstText(result)).toBe(text);
  });
});

describe('onBatch', () => {
  test('runs once per accepted batch, before any member, with the request, the size and the App context', async () => {
    const calls: Array<{ batch: McpBatch; ranBefore: number }> = [];
    const fx = createFixture({
      handler: { onBatch: (batch) => void calls.push({ batch, ranBefore: fx.seen.length }) },
    });
    await expectBatch(await legacyPost(fx.app, [echo('a', 1), note, echo('b', 2)]));
    expect(calls).toHaveLength(1);
    const [{ batch, ranBefore }] = calls as [{ batch: McpBatch; ranBefore: number }];
    expect(ranBefore).toBe(0);
    expect(batch.size).toBe(3);
    expect(batch.request.method).toBe('POST');
    expect(batch.context?.route.path).toBe('/mcp');
    expect(fx.seen).toHaveLength(2);
  });

  test('is not called for a single message, nor for a batch refused by revision or size', async () => {
    let calls = 0;
    const fx = createFixture({ handler: { maxBatchSize: 2, onBatch: () => void calls++ } });
    await expectRpcResult(await legacyPost(fx.app, echo('a', 1)), 1);
    await expectIdNullError(
      await legacyPost(fx.app, [ping(1), ping(2), ping(3)]),
      -32600,
      'at most 2 messages',
    );
    await expectIdNullError(
      await legacyPost(fx.app, [ping(1)], { 'mcp-protocol-version': '2025-06-18' }),
      -32600,
      'batches are not allowed',
    );
    expect(calls).toBe(0);
  });

  test('a Response it returns is the answer, and no member runs', async () => {
    // A bare handler: behind mcpRoutes the status must be one the route declares (or throw an HttpError).
    let ran = 0;
    const handler = createMcpHandler({
      serverInfo: { name: 'bare', version: '1.0.0' },
      tools: [
        { name: 't', description: 'Counts', inputSchema: { type: 'object' }, handler: () => `${++ran}` },
      ],
      onBatch: () => new Response('{"refused":true}', { status: 429, headers: { 'retry-after': '7' } }),
    });
    const res = await legacyPost(handler, [rpc('tools/call', { name: 't', arguments: {} }, 1)]);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ refused: true });
    expect(ran).toBe(0);
  });

  test('a bare handler passes no context', async () => {
    let context: unknown = 'unset';
    const handler = createMcpHandler({
      serverInfo: { name: 'bare', version: '1.0.0' },
      onBatch: (batch) => {
        context = batch.context;
      },
    });
    await expectBatch(await legacyPost(handler, [ping(1)]));
    expect(context).toBeUndefined();
  });
});

describe('chargeBatchMembers', () => {
  /** A tool server whose POST route is limited to `max` requests, each batch member counted. */
  function limited(max: number, phase: 'onRequest' | 'preBody' | 'beforeHandle') {
    const limit = rateLimit({ windowMs: 60_000, max, phase, legacyHeaders: true });
    return createFixture({
      handler: { onBatch: chargeBatchMembers(limit) },
      routes: { hooks: [limit] },
    });
  }

  for (const phase of ['preBody', 'beforeHandle', 'onRequest'] as const) {
    test(`${phase}: a batch of n costs n, and the RateLimit fields report what is left after it`, async () => {
      const fx = limited(10, phase);
      const res = await legacyPost(
        fx.app,
        [1, 2, 3, 4].map((i) => echo('a', i)),
      );
      expect(res.headers.get('ratelimit')).toBe('"default";r=6;t=60');
      expect(res.headers.get('ratelimit-remaining')).toBe('6');
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=10;w=60');
      expect(await expectBatch(res)).toHaveLength(4);
      const single = await legacyPost(fx.app, echo('b', 5));
      expect(single.headers.get('ratelimit-remaining')).toBe('5');
      await expectRpcResult(single, 5);
      const rest = await legacyPost(
        fx.app,
        [6, 7, 8, 9, 10].map((i) => echo('c', i)),
      );
      expect(rest.headers.get('ratelimit-remaining')).toBe('0');
      expect(await expectBatch(rest)).toHaveLength(5);
      expect(fx.seen).toHaveLength(10);
    });

    test(`${phase}: a batch the quota cannot cover is refused whole with 429 before any member runs`, async () => {
      const fx = limited(5, phase);
      await expectBatch(
        await legacyPost(
          fx.app,
          [1, 2, 3].map((i) => echo('a', i)),
        ),
      );
      const res = await legacyPost(
        fx.app,
        [4, 5, 6].map((i) => echo('b', i)),
      );
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      const problem = await expectProblem(
        res,
        429,
        'too-many-requests',
        'Too many requests: at most 5 per 60 s',
      );
      expect(problem.title).toBe('Too Many Requests');
      expect(fx.seen).toHaveLength(3);
    });
  }

  test('a batch of one costs what a single message does: the request itself', async () => {
    const fx = limited(2, 'preBody');
    const res = await legacyPost(fx.app, [echo('a', 1)]);
    expect(res.headers.get('ratelimit-remaining')).toBe('1');
    await expectBatch(res);
  });

  test('refuses hooks that cannot count, and a batch served without the App context', async () => {
    expect(() => chargeBatchMembers({})).toThrow(
      new TypeError('chargeBatchMembers: limit has no onRequest, preBody or beforeHandle hook to count with'),
    );
    expect(() => chargeBatchMembers(null as never)).toThrow(TypeError);
    const limit = rateLimit({ windowMs: 60_000, max: 10, phase: 'preBody' });
    const handler = createMcpHandler({
      serverInfo: { name: 'bare', version: '1.0.0' },
      onBatch: chargeBatchMembers(limit),
    });
    await expect(legacyPost(handler, [ping(1), ping(2)])).rejects.toThrow(
      'chargeBatchMembers needs the App context of the request: mount the handler with mcpRoutes',
    );
  });
});

describe('batch members run in one lane, one per turn of the event loop', () => {
  function stepServer(order: string[]) {
    const step = defineMcpTool({
      name: 'step',
      description: 'Records that it ran',
      inputSchema: {
        type: 'object',
        properties: { batch: { type: 'string' }, n: { type: 'integer' } },
        required: ['batch', 'n'],
      },
      handler: ({ batch, n }) => {
        order.push(`${batch}${n}`);
        // Queued now: it runs before the next member only if the batch lets the event loop turn.
        if (batch === 'a' && n === 1) setImmediate(() => order.push('other task'));
        return 'ok';
      },
    });
    return createMcpHandler({ serverInfo: { name: 'steps', version: '1.0.0' }, tools: [step] });
  }
  const steps = (batch: string, count: number) =>
    Array.from({ length: count }, (_, i) =>
      rpc('tools/call', { name: 'step', arguments: { batch, n: i + 1 } }, `${batch}${i + 1}`),
    );

  test('a task queued while a member runs goes before the next member', async () => {
    const order: string[] = [];
    await expectBatch(await legacyPost(stepServer(order), steps('a', 3)));
    expect(order).toEqual(['a1', 'other task', 'a2', 'a3']);
  });

  test('two batches in flight take turns, one member of either per turn, first come first served', async () => {
    const order: string[] = [];
    const handler = stepServer(order);
    const [a, b] = await Promise.all([
      legacyPost(handler, steps('a', 3)),
      legacyPost(handler, steps('b', 3)),
    ]);
    await expectBatch(a);
    await expectBatch(b);
    expect(order.filter((entry) => entry !== 'other task')).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });
});
