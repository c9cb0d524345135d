/**
 * `scripts/site-compile.ts` sends the site's loads on first use to a second entry of the executable
 * (`site/lazy-modules.ts`), so that the main bundle holds none of their code (issue 18, item 6). These
 * tests check the rewriting and that the list of those loads matches the sources; `compile.test.ts`
 * checks that the executable built this way answers as the site from source does.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { LAZY_LOADS, redirectLazyLoads } from '../../scripts/site-compile.ts';

const ROOT = join(import.meta.dir, '..', '..');
const source = (file: string) => Bun.file(join(ROOT, file)).text();
const LAZY = '(globalThis as any)[Symbol.for("charter.site.lazy")]()';

describe('site-compile: loads on first use go to the lazy entry', () => {
  test('every listed load of every listed file is rewritten; types and other code stay as written', async () => {
    for (const [file, loads] of Object.entries(LAZY_LOADS)) {
      const code = await source(file);
      const out = redirectLazyLoads(file, code);
      for (const [specifier, name] of Object.entries(loads)) {
        expect(out).not.toContain(`require('${specifier}')`);
        expect(out).not.toMatch(
          new RegExp(`(?<!typeof\\s+)import\\('${specifier.replace(/\./g, '\\.')}'\\)`),
        );
        expect(out).toContain(`${LAZY}.${name}`);
      }
      // Only the lines with a listed load changed.
      const before = code.split('\n');
      const after = out.split('\n');
      expect(after.length).toBe(before.length);
      // A load, not a type (`typeof import('x')`).
      const loadLine = (line: string) =>
        Object.keys(loads).some((specifier) =>
          new RegExp(
            `(?<!typeof\\s+)\\b(require|import)\\('${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'\\)`,
          ).test(line),
        );
      before.forEach((line, i) => {
        if (!loadLine(line)) expect(after[i]).toBe(line);
        else expect(after[i]).not.toBe(line);
      });
    }
  });

  test('require becomes the export, import() a promise of it, typeof import() (a type) is left alone', () => {
    const code = [
      "const a = require('./problems.ts') as typeof import('./problems.ts');",
      "const b = require('./api/machine-routes.ts');",
      "const c = require('./other.ts');",
    ].join('\n');
    const out = redirectLazyLoads('site/app.ts', code);
    expect(out).toBe(
      [
        `const a = ${LAZY}.problems as typeof import('./problems.ts');`,
        `const b = ${LAZY}.machineRoutes;`,
        "const c = require('./other.ts');",
      ].join('\n'),
    );
    expect(redirectLazyLoads('site/main.ts', "const q = await import('./quota.ts');")).toBe(
      `const q = await Promise.resolve(${LAZY}.quota);`,
    );
    // Files without listed loads are returned as they are.
    expect(redirectLazyLoads('site/config.ts', "require('./x.ts')")).toBe("require('./x.ts')");
  });

  test('a listed load that the file no longer makes fails the build, naming it', () => {
    expect(() => redirectLazyLoads('site/app.ts', "require('./problems.ts');")).toThrow(
      /site\/app\.ts no longer loads \.\/api\/machine-routes\.ts/,
    );
  });

  test('the lazy entry exports exactly the modules the listed loads ask for', async () => {
    const lazy = await import('../../site/lazy-modules.ts');
    const names = new Set(Object.values(LAZY_LOADS).flatMap((loads) => Object.values(loads)));
    expect(Object.keys(lazy).sort()).toEqual([...names].sort());
    expect(lazy.problems).toBe(await import('../../site/problems.ts'));
    expect(lazy.machineRoutes).toBe(await import('../../site/api/machine-routes.ts'));
    expect(lazy.arktype).toBe(await import('arktype'));
    expect(lazy.jwt).toBe(await import('@charter/jwt'));
  });
});
