/**
 * `bun site/bench/batch-attack.ts`: what one client spending its whole quota on `/mcp` does to
 * everyone else (issue 17, "Cost per request that the quota does not see"). The site runs in its
 * own process (`site-process.ts`). A victim asks `GET /api/v1` every `VICTIM_GAP_MS`, each request
 * from a fresh address so that its own quota never interferes; first alone (the baseline), then
 * while an attacker, from one address, sends `ATTACK_CONCURRENCY` streams of JSON-RPC batches of
 * `BATCH` costly `search_docs` calls for `SECONDS`. Prints the victim's latencies and what the
 * attacker got back. A measurement, not a test: run it before and after a change.
 *
 *   BATCH=64 SECONDS=20 bun site/bench/batch-attack.ts
 */
import { join } from 'node:path';
import { median } from '../../bench/median.ts';

const BATCH = Number(process.env.BATCH ?? 64);
const SECONDS = Number(process.env.SECONDS ?? 20);
const CONCURRENCY = Number(process.env.ATTACK_CONCURRENCY ?? 2);
const VICTIM_GAP_MS = Number(process.env.VICTIM_GAP_MS ?? 50);
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

async function victim(origin: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    latencies.push(await victimOnce(origin));
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

async function attacker(origin: string, until: () => boolean, statuses: Map<number, number>) {
  const body = batchBody(BATCH);
  let bytes = 0;
  const stream = async () => {
    while (!until()) {
      const res = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.66' },
        body,
      });
      bytes += (await res.arrayBuffer()).byteLength;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, stream));
  return bytes;
}

function describe(label: string, latencies: readonly number[]): string {
  return `${label}: n=${latencies.length} median=${median(latencies).toFixed(2)} ms p90=${percentile(latencies, 90).toFixed(2)} ms max=${Math.max(...latencies).toFixed(2)} ms`;
}

const site = await startSite();
try {
  for (let i = 0; i < 20; i++) await victimOnce(site.origin);
  const baselineEnd = Date.now() + 5_000;
  const baseline = await victim(site.origin, () => Date.now() > baselineEnd);
  const attackEnd = Date.now() + SECONDS * 1000;
  const statuses = new Map<number, number>();
  const attackStart = performance.now();
  const [underAttack, bytes] = await Promise.all([
    victim(site.origin, () => Date.now() > attackEnd),
    attacker(site.origin, () => Date.now() > attackEnd, statuses),
  ]);
  const attackSeconds = (performance.now() - attackStart) / 1000;
  console.log(`batch of ${BATCH} search_docs ${JSON.stringify(QUERY)}, ${CONCURRENCY} streams, ${SECONDS} s`);
  console.log(describe('victim GET /api/v1, baseline    ', baseline));
  console.log(describe('victim GET /api/v1, under attack', underAttack));
  console.log(
    `attacker: ${[...statuses].map(([status, n]) => `${n} x ${status}`).join(', ')}; ${(bytes / 1024).toFixed(0)} KiB received in ${attackSeconds.toFixed(1)} s`,
  );
} finally {
  await site.stop();
}
