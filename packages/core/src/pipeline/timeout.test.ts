import { describe, expect, test } from 'bun:test';
import { RequestTimeoutError } from '../errors/index.ts';
import { Exchange } from './context.ts';
import { RequestTimeouts } from './timeout.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Probe {
  exchange: Exchange;
  settle: (response: Response) => void;
  fail: (error: unknown) => void;
  answered: Promise<Response>;
}

/** Starts `count` watched requests whose work finishes (or fails) only when the test says so. */
function watchMany(timeouts: RequestTimeouts, count: number): Probe[] {
  const probes: Probe[] = [];
  for (let i = 0; i < count; i++) {
    const work = Promise.withResolvers<Response>();
    const exchange = new Exchange(new Request(`http://test/${i}`), () => undefined);
    const answered = timeouts.watch(
      work.promise,
      exchange,
      undefined,
      (_host, _exchange, response) => response,
      (_host, _exchange, error) =>
        new Response(error instanceof RequestTimeoutError ? 'timed out' : 'failed', {
          status: error instanceof RequestTimeoutError ? 408 : 500,
        }),
    );
    probes.push({ exchange, settle: work.resolve, fail: work.reject, answered });
  }
  return probes;
}

describe('RequestTimeouts', () => {
  test('requests that finish in any order get their own answer; the rest time out, once each', async () => {
    const timeouts = new RequestTimeouts(40, 408);
    const probes = watchMany(timeouts, 30);
    // Finish every third request from the newest back (unlinking from the middle, both ends),
    // fail every fifth of the others, and leave the rest hanging past the deadline.
    for (let i = probes.length - 1; i >= 0; i -= 3) probes[i]!.settle(new Response(`done ${i}`));
    for (let i = 0; i < probes.length; i += 5) probes[i]!.fail(new Error('boom'));
    await sleep(80);
    for (const [i, probe] of probes.entries()) {
      const response = await probe.answered;
      const finished = (probes.length - 1 - i) % 3 === 0;
      const failed = !finished && i % 5 === 0;
      if (finished) {
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(`done ${i}`);
        expect(probe.exchange.timedOut).toBe(false);
      } else if (failed) {
        expect(response.status).toBe(500);
        expect(probe.exchange.timedOut).toBe(false);
      } else {
        expect(response.status).toBe(408);
        expect(await response.text()).toBe('timed out');
        expect(probe.exchange.timedOut).toBe(true);
        expect(probe.exchange.signal.aborted).toBe(true);
        expect(probe.exchange.signal.reason).toBeInstanceOf(RequestTimeoutError);
      }
    }
  });

  test('work that finishes after its request timed out is ignored', async () => {
    const timeouts = new RequestTimeouts(20, 503);
    const [probe] = watchMany(timeouts, 1);
    await sleep(50);
    probe!.settle(new Response('too late'));
    const response = await probe!.answered;
    expect(response.status).toBe(408);
    expect(await response.text()).toBe('timed out');
  });

  test('the timer re-arms for a request still running when the first expires, at its own deadline', async () => {
    const timeouts = new RequestTimeouts(30, 504);
    const firstStart = performance.now();
    const [first] = watchMany(timeouts, 1);
    await sleep(15);
    const secondStart = performance.now();
    const [second] = watchMany(timeouts, 1);
    // Only lower bounds on time: a loaded machine runs timers late, never early. Were the sweep not to
    // re-arm, the second request would never be answered (the test's timeout); were it to expire every
    // watched request at once, the second would be answered before its own deadline.
    const firstResponse = await first!.answered;
    expect(firstResponse.status).toBe(408);
    expect(performance.now() - firstStart).toBeGreaterThanOrEqual(29);
    const secondResponse = await second!.answered;
    expect(secondResponse.status).toBe(408);
    expect(await secondResponse.text()).toBe('timed out');
    expect(second!.exchange.timedOut).toBe(true);
    expect(performance.now() - secondStart).toBeGreaterThanOrEqual(29);
  });

  test('while any request is watched the timer is armed; the last out leaves none that holds the process', async () => {
    const timeouts = new RequestTimeouts(30, 408);
    expect(timeouts.armed).toBe(false);
    const [first, second] = watchMany(timeouts, 2);
    expect(timeouts.armed).toBe(true);
    first!.settle(new Response('one'));
    expect(await (await first!.answered).text()).toBe('one');
    // Another request is still running: its deadline still needs the timer.
    expect(timeouts.armed).toBe(true);
    second!.fail(new Error('boom'));
    expect((await second!.answered).status).toBe(500);
    // Left armed only unref'd (Bun, Node), which cannot keep the process alive ...
    expect(timeouts.holdsProcess).toBe(false);
    // ... and once it fires on an empty list, it disarms itself.
    await sleep(80);
    expect(timeouts.armed).toBe(false);
  });

  test('a request after an idle spell is still timed out by the timer left armed', async () => {
    const timeouts = new RequestTimeouts(30, 504);
    const [first] = watchMany(timeouts, 1);
    first!.settle(new Response('one'));
    await first!.answered;
    await sleep(10);
    const [late] = watchMany(timeouts, 1);
    const response = await late!.answered;
    expect(response.status).toBe(408);
    expect(late!.exchange.timedOut).toBe(true);
    expect(timeouts.armed).toBe(false);
  });
});
