/**
 * The typed chain scales linearly (issue 18): each route of `new App().get(...).post(...)...` costs the
 * compiler the same, however many came before it. Checked on counts, which are deterministic, never on
 * times: the app of `bench/types/check.ts` (arktype params, query and response schemas, typed handlers,
 * a typed client calling every tenth operation) is type-checked with 40, 120 and 200 routes against the
 * built package (`bun run build` first, as for the packaging tests), and the instantiations and types
 * the last 80 routes add must not exceed what the 80 before them added. When the App's type re-walked
 * every recorded route on each call, the second figure was 9% (instantiations) and 16% (types) higher,
 * and a chain nested one type per route failed outright ("excessively deep") at about 50 routes.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { check, type Figures, writeProject } from '../../bench/types/check.ts';

const ROOT = join(import.meta.dir, '..', '..');

function figures(n: number): Figures {
  const dir = writeProject('app', n);
  try {
    return check(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('type-checking a chain of routes', () => {
  test('costs the same for each route, however long the chain', () => {
    if (!existsSync(join(ROOT, 'packages', 'charter', 'dist', 'index.d.ts'))) {
      throw new Error('packages/charter/dist is missing: run `bun run build` before this test');
    }
    const [a, b, c] = [figures(40), figures(120), figures(200)] as [Figures, Figures, Figures];
    const first = { instantiations: b.instantiations - a.instantiations, types: b.types - a.types };
    const second = { instantiations: c.instantiations - b.instantiations, types: c.types - b.types };
    expect(second.instantiations).toBeLessThanOrEqual(first.instantiations * 1.02);
    expect(second.types).toBeLessThanOrEqual(first.types * 1.02);
  }, 300_000);
});
