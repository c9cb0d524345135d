/**
 * `bun site/bench/batch-attack.ts`: what one client spending its whole quota on `/mcp` does to
 * everyone else (issue 17, "Cost per request that the quota does not see"). The site runs in its
 * own process (`site-process.ts`). A victim asks `GET /api/v1` every `VICTIM_GAP_MS`, each request
 * from a fresh address so that its own quota never interferes; first alone (the baseline), then
 * while an attacker, from one address, sends `ATTACK_CONCURRENCY` streams of JSON-RPC batches of
 * `BATCH` costly `search_docs` calls for `SECONDS`, or, with `STOP_AT_429=1`, until each stream is
 * refused (a client that spends its whole quota, then waits). Prints the victim's latencies: all of
 * them, and those sent while the attacker was still being served (its quota being spent); and what
 * the attacker got back. A measurement, not a test: run it before and after a change.
 *
 *   BATCH=64 SECONDS=20 bun site/bench/batch-attack.ts
 *   BATCH=16 ATTACK_CONCURRENCY=4 STOP_AT_429=1 bun site/bench/batch-attack.ts
 */
import { join } from 'node:path';
import { median } from '../../bench/median.ts';

const BATCH = Number(process.env.BATCH ?? 64);
const SECONDS = Number(process.env.SECONDS ?? 20);
const CONCURRENCY = Number(process.env.ATTACK_CONCURRENCY ?? 2);
const VICTIM_GAP_MS = Number(process.env.VICTIM_GAP_MS ?? 50);
const STOP_AT_429 = process.env.STOP_AT_429 === '1';
/** A short, common prefix with the most results: the dearest query the tool accepts. */
const QUERY = process.env.QUERY ?? 're';

async function startSite(): Promise<{ origin: string; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'site-process.ts')], {
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the site exited before listening');
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    origin: `http://127.0.0.1:${text.trim().split(' ')[1]}`,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

let victimAddress = 0;
async function victimOnce(origin: string): Promise<number> {
  victimAddress++;
  const address = `198.51.${(victimAddress >> 8) & 255}.${victimAddress & 255}`;
  const start = performance.now();
  const res = await fetch(`${origin}/api/v1`, { headers: { 'x-forwarded-for': address } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`victim got ${res.status}`);
  return performance.now() - start;
}

/** Latencies, each with whether the attacker was still being served when the request was sent. */
async function victim(origin: string, until: () => boolean, attacked: () => boolean) {
  const latencies: Array<{ ms: number; attacked: boolean }> = [];
  while (!until()) {
    const during = attacked();
    latencies.push({ ms: await victimOnce(origin), attacked: during });
    await Bun.sleep(VICTIM_GAP_MS);
  }
  return latencies;
}

function batchBody(size: number): string {
  const calls = Array.from({ length: size }, (_, i) => ({
    jsonrpc: '2.0',
    id: i + 1,
    method: 'tools/call',
    params: { name: 'search_docs', arguments: { query: QUERY, limit: 20 } },
  }));
  return JSON.stringify(size === 1 ? calls[0] : calls);
}

/** The attacker's streams; `served` is true until every stream has had its first refusal. */
const attack = { served: true, bytes: 0, statuses: new Map<number, number>() };

async function attacker(origin: string, until: () => boolean): Promise<void> {
  const body = batchBody(BATCH);
  let refusedStreams = 0;
  const stream = async () => {
    let refused = false;
    while (!until()) {
      const res = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.66' },
        body,
      });
      attack.bytes += (await res.arrayBuffer()).byteLength;
      attack.statuses.set(res.status, (attack.statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429 && !refused) {
        refused = true;
        if (++refusedStreams === CONCURRENCY) attack.served = false;
        if (STOP_AT_429) return;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, stream));
  attack.served = false;
}

function describe(label: string, latencies: readonly number[]): string {
  if (latencies.length === 0) return `${label}: no requests`;
  return `${label}: n=${latencies.length} median=${median(latencies).toFixed(2)} ms p90=${percentile(latencies, 90).toFixed(2)} ms max=${Math.max(...latencies).toFixed(2)} ms`;
}

const site = await startSite();
try {
  for (let i = 0; i < 20; i++) await victimOnce(site.origin);
  const baselineEnd = Date.now() + 5_000;
  const baseline = await victim(
    site.origin,
    () => Date.now() > baselineEnd,
    () => false,
  );
  const attackEnd = Date.now() + SECONDS * 1000;
  const attackStart = performance.now();
  let attackerDone = false;
  const [underAttack] = await Promise.all([
    // With STOP_AT_429 the window ends when the attacker stops, and at least after a second.
    victim(
      site.origin,
      () => Date.now() > attackEnd || (attackerDone && performance.now() - attackStart > 1_000),
      () => attack.served,
    ),
    attacker(site.origin, () => Date.now() > attackEnd).then(() => {
      attackerDone = true;
    }),
  ]);
  const attackSeconds = (performance.now() - attackStart) / 1000;
  const ms = (list: ReadonlyArray<{ ms: number }>) => list.map((entry) => entry.ms);
  console.log(
    `batch of ${BATCH} search_docs ${JSON.stringify(QUERY)}, ${CONCURRENCY} streams, ${STOP_AT_429 ? 'until refused' : `${SECONDS} s`}`,
  );
  console.log(describe('victim GET /api/v1, baseline                 ', ms(baseline)));
  console.log(describe('victim GET /api/v1, whole attack window      ', ms(underAttack)));
  console.log(
    describe(
      'victim GET /api/v1, while attacker is served  ',
      ms(underAttack.filter((entry) => entry.attacked)),
    ),
  );
  console.log(
    `attacker: ${[...attack.statuses].map(([status, n]) => `${n} x ${status}`).join(', ')}; ${(attack.bytes / 1024).toFixed(0)} KiB received in ${attackSeconds.toFixed(1)} s`,
  );
} finally {
  await site.stop();
}
