/**
 * The `grouped` variant of `bench/types/check.ts` (issue 18, item 5): the same generated routes as a
 * chain of `group()`s, which content/docs/typed-client.md measures against one long chain. The project
 * must type-check as it is (the typed client calls operations registered inside the groups), and the
 * group size is a positive whole number.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { check, generate, parseArgs, writeProject } from '../../bench/types/check.ts';

const ROOT = join(import.meta.dir, '..', '..');

describe('bench/types/check.ts grouped variant', () => {
  test('writes the routes as chained groups of the given size', () => {
    const source = generate('grouped', 60, false, 25);
    expect(source.match(/\.group\('\/g\d+', \{\}, \(g\) => g$/gm)).toEqual([
      ".group('/g0', {}, (g) => g",
      ".group('/g1', {}, (g) => g",
      ".group('/g2', {}, (g) => g",
    ]);
    expect(source.match(/operationId: 'op\d+'/g)?.length).toBe(60);
    expect(source).toContain('createClient(app');
  });

  test('type-checks, the client calling operations registered inside the groups', () => {
    if (!existsSync(join(ROOT, 'packages', 'charter', 'dist', 'index.d.ts'))) {
      throw new Error('packages/charter/dist is missing: run `bun run build` before this test');
    }
    const dir = writeProject('grouped', 60, { groupSize: 25 });
    try {
      expect(readFileSync(join(dir, 'app.ts'), 'utf8')).toContain('client.op50(');
      const figures = check(dir);
      expect(figures.instantiations).toBeGreaterThan(0);
      expect(figures.types).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('takes the group size from --group-size, and refuses one that is not a positive whole number', () => {
    expect(parseArgs(['1000', '--variant', 'grouped', '--group-size', '20']).groupSize).toBe(20);
    expect(parseArgs(['1000']).groupSize).toBe(50);
    for (const bad of ['0', '-5', '2.5', 'many']) {
      expect(() => parseArgs(['1000', '--group-size', bad])).toThrow(
        '--group-size takes a positive whole number',
      );
    }
  });
});
