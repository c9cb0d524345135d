/**
 * The `bun` build of charter (scripts/build-bun-bytecode.ts): what Bun's runtime loads through the `bun`
 * export condition, CommonJS libs with JavaScriptCore bytecode behind ESM entry files. Run after
 * `bun run build`, in the consumer fixture, where `charter` resolves by name as a user's would.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  BYTECODE_PRAGMA,
  bytecodeEntryPath,
  ESM_ONLY_ENTRIES,
  entryFacade,
  SHARED_STEM,
} from '../../scripts/build-bun-bytecode.ts';
import { CHARTER_DIR, DIST, isRelative, ROOT, scanSpecifiers, subpathEntries } from '../../scripts/build.ts';
import { linkCharterInto } from '../support/link-charter.ts';

const FIXTURE = join(import.meta.dir, 'fixtures', 'consumer');
const LIB = join(DIST, 'bun', 'lib');

/** Runs `script` as a module under this Bun in the consumer fixture, counting bytecode cache hits and misses. */
function runInFixture(script: string, flags: string[] = [], cwd = FIXTURE) {
  const run = Bun.spawnSync([process.execPath, ...flags, '-e', script], {
    cwd,
    env: { ...process.env, BUN_JSC_verboseDiskCache: '1' },
  });
  const stderr = run.stderr.toString();
  const count = (what: string) => stderr.split('\n').filter((l) => l.includes(`Cache ${what} for`)).length;
  return {
    exitCode: run.exitCode,
    stdout: run.stdout.toString(),
    stderr,
    hits: count('hit'),
    misses: count('miss'),
  };
}

/** The lib files an entry file loads (its `libs` list) and every lib they require in turn. */
function libClosure(entry: string): string[] {
  const stems = /const libs = installed \? (\[[^\]]*\])/.exec(readFileSync(entry, 'utf8'))?.[1];
  const queue = (JSON.parse(stems ?? '[]') as string[]).map((stem) => join(LIB, `${stem}.js`));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { value } of scanSpecifiers(readFileSync(file, 'latin1'))) {
      if (isRelative(value)) queue.push(join(dirname(file), value));
    }
  }
  return [...seen];
}

beforeAll(() => {
  if (!existsSync(join(DIST, 'bun', 'index.js'))) {
    throw new Error('packages/charter/dist/bun is missing: run `bun run build` before the packaging tests');
  }
  linkCharterInto(FIXTURE);
});

describe('the bun build', () => {
  test('every subpath but the ESM-only ones has an entry file, and every lib file its bytecode', () => {
    const entries = subpathEntries();
    for (const entry of entries) {
      const file = join(CHARTER_DIR, bytecodeEntryPath(entry.name));
      expect({ entry: entry.name, built: existsSync(file) }).toEqual({
        entry: entry.name,
        built: !ESM_ONLY_ENTRIES.has(entry.name),
      });
    }
    const libs = [...new Bun.Glob('*.js').scanSync({ cwd: LIB })].sort();
    // The shared lib and one per runtime adapter.
    expect(libs).toEqual(
      ['bun', 'cloudflare', 'deno', 'fastly', 'lambda', 'node', SHARED_STEM, 'vercel']
        .map((s) => `${s}.js`)
        .sort(),
    );
    for (const lib of libs) {
      const code = readFileSync(join(LIB, lib), 'latin1');
      expect({
        lib,
        pragma: code.slice(0, BYTECODE_PRAGMA.length),
        bytecode: existsSync(join(LIB, `${lib}.jsc`)),
      }).toEqual({
        lib,
        pragma: BYTECODE_PRAGMA,
        bytecode: true,
      });
    }
  });

  test("every source a lib's map names is a file of the repository, by a stable relative path", () => {
    for (const map of [...new Bun.Glob('*.js.map').scanSync({ cwd: LIB, absolute: true })]) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      const outside = sources.filter((source) => !resolve(dirname(map), source).startsWith(ROOT + sep));
      expect({ map: relative(ROOT, map), outside }).toEqual({ map: relative(ROOT, map), outside: [] });
    }
  });

  test('Bun resolves charter by name to the bun build, and --conditions=module to the ESM build', () => {
    const script =
      "for (const s of ['charter', 'charter/bun', 'charter/cli']) console.log(Bun.resolveSync(s, process.cwd()));";
    const resolved = (flags: string[] = []) =>
      runInFixture(script, flags)
        .stdout.trim()
        .split('\n')
        .map((path) => relative(CHARTER_DIR, path));
    expect(resolved()).toEqual(['dist/bun/index.js', 'dist/bun/bun.js', 'dist/cli.js']);
    expect(resolved(['--conditions=module'])).toEqual(['dist/index.js', 'dist/bun.js', 'dist/cli.js']);
  });

  test("import 'charter' runs every lib it loads from its bytecode; the ESM build from none", () => {
    const libs = libClosure(join(DIST, 'bun', 'index.js'));
    expect(libs).toEqual([join(LIB, `${SHARED_STEM}.js`)]);
    expect(libClosure(join(DIST, 'bun', 'vercel.js')).sort()).toEqual(
      ['node', SHARED_STEM, 'vercel'].map((stem) => join(LIB, `${stem}.js`)).sort(),
    );
    const script =
      "const c = await import('charter'); const keys = Object.keys(c); console.log(typeof c.App, keys.includes('default'), keys.includes('__esModule'));";
    const bytecode = runInFixture(script);
    expect(bytecode.exitCode).toBe(0);
    expect(bytecode.stdout.trim()).toBe('function false false');
    expect(bytecode.hits).toBe(libs.length);
    const esm = runInFixture(script, ['--conditions=module']);
    expect(esm.stdout.trim()).toBe('function false false');
    expect(esm.hits).toBe(0);
  });

  test('a module the subpaths share is one instance, so values keep their identity across subpaths', () => {
    const script = [
      "const root = await import('charter');",
      "const ws = await import('charter/websocket');",
      "const jwk = await import('charter/jwk');",
      "const jwt = await import('charter/jwt');",
      // WS_CLOSE_CODES is the core's, re-exported by charter/websocket; JwtError comes from the jwt lib to all three.
      'const pairs = [[root.WS_CLOSE_CODES, ws.WS_CLOSE_CODES], [root.JwtError, jwt.JwtError], [jwk.createJwksVerifier, root.createJwksVerifier]];',
      'console.log(JSON.stringify(pairs.map(([a, b]) => a !== undefined && a === b)));',
    ].join('\n');
    const run = runInFixture(script);
    expect(run.stderr.includes('error')).toBe(false);
    expect(JSON.parse(run.stdout)).toEqual([true, true, true]);
  });

  test('bytecode that no longer matches its source is ignored and the source runs (Bun fails open)', () => {
    const copy = mkdtempSync(join(tmpdir(), 'charter-bytecode-'));
    try {
      // The entry files take the libs only from a `dist/bun` folder, as installed.
      cpSync(DIST, join(copy, 'dist'), { recursive: true });
      const adapter = join(copy, 'dist', 'bun', 'lib', 'bun.js');
      // Any change to the source changes its hash: Bun must not run the old bytecode for it.
      writeFileSync(adapter, `${readFileSync(adapter, 'latin1')}\n// changed after the build\n`, 'latin1');
      const script = `const bun = await import(${JSON.stringify(join(copy, 'dist', 'bun', 'bun.js'))}); console.log(typeof bun.serve);`;
      const run = runInFixture(script, [], copy);
      expect(run.exitCode).toBe(0);
      expect(run.stdout.trim()).toBe('function');
      // bun.js and shared.js: the shared lib's bytecode still matches; the adapter's does not.
      expect(run.hits).toBe(1);
      expect(run.misses).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('entryFacade', () => {
  const libs: Record<string, Record<string, unknown>> = {
    '@charter/core': { App: 1, HttpError: 2, SHARED: 3, CLASH: 4 },
    '@charter/ws': { SHARED: 3, CLASH: 5, Ws: 6 },
    '@charter/app': { App: 7, createApp: 8 },
  };
  // core and ws live in the shared lib, under their keys; app stands for an adapter with a lib of its own.
  const libOf = (pkg: string) => {
    const exports = libs[pkg];
    if (exports === undefined) throw new Error(`no ${pkg}`);
    const name = pkg.slice('@charter/'.length);
    const where = name === 'app' ? { stem: 'app' } : { stem: SHARED_STEM, key: name };
    return { ...where, names: Object.keys(exports), exports };
  };
  /** The lib stems the facade loads, and the names it takes from each. */
  const parse = (facade: string) => ({
    stems: JSON.parse(/const libs = installed \? (\[[^\]]*\])/.exec(facade)?.[1] ?? 'null') as string[],
    exports: [...facade.matchAll(/^export const \{ ([^}]*) \} = esm \?\? (libs\[\d+\](?:\.\w+)?);$/gm)].map(
      ([, names = '', from]) => ({ from, names: names.split(', ') }),
    ),
  });

  test('names every export from the lib that gives it, as ESM would resolve the stars', () => {
    const source = [
      "export * from '@charter/core';",
      "export * from '@charter/ws';",
      "export { App, type AppOptions, createApp } from '@charter/app';",
    ].join('\n');
    const facade = entryFacade('index', source, libOf);
    expect(facade.startsWith('// @bun\n')).toBe(true);
    expect(parse(facade)).toEqual({
      stems: ['app', SHARED_STEM],
      exports: [
        { from: 'libs[0]', names: ['App', 'createApp'] },
        { from: 'libs[1].core', names: ['HttpError', 'SHARED'] },
        { from: 'libs[1].ws', names: ['Ws'] },
      ],
    });
    // The runtime takes the libs only from the installed file; anything else (a bundle) the ESM build.
    expect(facade).toContain('import.meta.url.endsWith("/dist/bun/index.js")');
    expect(facade).toContain('require("../index.js")');
  });

  test('leaves out a name two stars give with different values, as ESM leaves an ambiguous one', () => {
    const facade = entryFacade('x', "export * from '@charter/core';\nexport * from '@charter/ws';\n", libOf);
    expect(parse(facade).exports).toEqual([
      { from: 'libs[0].core', names: ['App', 'HttpError', 'SHARED'] },
      { from: 'libs[0].ws', names: ['Ws'] },
    ]);
  });

  test('refuses a renamed re-export and an unknown package', () => {
    expect(() => entryFacade('x', "export { App as Application } from '@charter/app';", libOf)).toThrow(
      'under another name',
    );
    expect(() => entryFacade('x', "export * from '@charter/nope';", libOf)).toThrow('no @charter/nope');
  });
});
