/**
 * OpenAPI document cost: `bun bench/openapi.ts`.
 * Times `generateOpenAPI` for the rich example app (examples/contract-app.ts) and for an app of 1,000
 * routes (arktype params, query, body and response schemas), and the cached GET /openapi.json that
 * serves it afterwards. Medians of `BENCH_OPENAPI_RUNS` runs (default 9), in milliseconds. Generation
 * happens once per set of routes (the mounted document is cached until a route is added), so the
 * first figure is a start-up cost, the last the per-request one.
 */
import { type } from 'arktype';
import { App } from 'charter';
import { generateOpenAPI } from 'charter/openapi';
import { contractOpenAPI, createContractApp } from '../examples/contract-app.ts';
import { median } from './median.ts';

const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 9);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new RangeError('BENCH_OPENAPI_RUNS must be a positive integer');

function time(run: () => unknown): number {
  run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

function bigApp(routes: number): App {
  const app = new App({ logger: false, openapi: true });
  const Item = type({ id: 'number.integer', name: 'string', tags: 'string[]' });
  for (let i = 0; i < routes; i++) {
    app.post(
      `/r${i}/:id`,
      {
        operationId: `op${i}`,
        request: { params: type({ id: 'number.integer' }), query: type({ 'q?': 'string' }), body: Item },
        responses: { 200: { body: Item }, 404: {} },
      },
      (ctx) => ({ status: 200, body: ctx.body }),
    );
  }
  return app;
}

const contract = createContractApp();
const big = bigApp(1000);
const info = { title: 'bench', version: '1' };
const contractMs = time(() => generateOpenAPI(contract, contractOpenAPI as never));
const bigMs = time(() => generateOpenAPI(big, { info }));
await big.request('/openapi.json'); // generates and caches
const served: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const res = await big.request('/openapi.json');
  await res.arrayBuffer();
  served.push(performance.now() - started);
}
const bytes = (await (await big.request('/openapi.json')).arrayBuffer()).byteLength;
console.log(`generateOpenAPI, example app (8 routes): ${contractMs.toFixed(2)} ms`);
console.log(`generateOpenAPI, 1,000 routes: ${bigMs.toFixed(1)} ms`);
console.log(
  `GET /openapi.json cached, 1,000 routes (${(bytes / 1024).toFixed(0)} KiB): ${median(served).toFixed(2)} ms`,
);
