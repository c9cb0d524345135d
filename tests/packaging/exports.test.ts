/**
 * Packaging checks for the published `charter` package. They read `packages/charter/dist`, so they run after
 * `bun run build` (the root `test` script builds first).
 *
 * The built package is imported BY NAME, as a consumer would: `fixtures/consumer/node_modules/charter` is a
 * link to packages/charter, created here. (Bun's isolated installs link workspace packages only into the
 * node_modules of the packages that depend on them, so the repository root has no `node_modules/charter`.)
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CHARTER_DIR,
  DIST,
  isBunBuiltin,
  isNodeBuiltin,
  isRelative,
  isTestFile,
  type Manifest,
  PACKAGES_DIR,
  ROOT,
  scanSpecifiers,
  subpathEntries,
  walkFiles,
  workspacePackages,
} from '../../scripts/build.ts';
import { bytecodeEntryPath, ESM_ONLY_ENTRIES } from '../../scripts/build-bun-bytecode.ts';
import { linkCharterInto } from '../support/link-charter.ts';

/**
 * Workspace packages deliberately not re-exported by any subpath of `charter` (test helpers, internal
 * tooling...), each with the reason. Every other package under packages/ has its own subpath; the root
 * (`index`) re-exports the core and may also re-export runtime-neutral feature packages, so the barrel
 * holds everything (the root-closure test below keeps it free of builtins).
 */
const INTERNAL_PACKAGES: ReadonlyArray<{ name: string; reason: string }> = [
  {
    name: 'create-charter',
    reason:
      'the scaffolder (`bun create charter`), a package of its own with its own bin and tarball; ' +
      'nothing in charter imports it, and charter does not ship it',
  },
  {
    name: '@charter/app',
    reason:
      "the root barrel's App (the core App plus the openapi/docs routes); it composes feature packages, " +
      'so it cannot live in the core, and it is only ever imported as `charter`',
  },
  {
    name: '@charter/json-rpc',
    reason:
      'JSON-RPC 2.0 message handling shared by the tool-server (MCP) and agent (A2A) modules; users reach it ' +
      'through those modules, never directly',
  },
];

const FIXTURE = join(import.meta.dir, 'fixtures', 'consumer');
const FIXTURE_TSCONFIGS = [
  'tsconfig.bundler.json',
  'tsconfig.nodenext.json',
  'tsconfig.adapters.bundler.json',
  'tsconfig.adapters.nodenext.json',
];
// Symbols are the keys of adapter protocols (WIRE_ANSWERS, REAL_REQUEST) and of values meant to be
// compared by identity (CREDENTIAL_REJECTION).
const ALLOWED_EXPORT_TYPES = new Set(['function', 'object', 'string', 'number', 'symbol']);

const manifest = JSON.parse(readFileSync(join(CHARTER_DIR, 'package.json'), 'utf8')) as Manifest;
const exportsMap = (manifest.exports ?? {}) as Record<string, unknown>;
const subpathKeys = Object.keys(exportsMap).filter((key) => key !== './package.json');
const specifierOf = (subpath: string): string => `charter${subpath.slice(1)}`;
const rel = (path: string): string => relative(ROOT, path).split(sep).join('/');

/** Every file path named in an exports map value (a string or nested conditions). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

/** `@charter/*` packages re-exported by a charter entry source. */
function reExportedPackages(file: string): string[] {
  return scanSpecifiers(readFileSync(file, 'utf8'))
    .map((s) => s.value)
    .filter((value) => value.startsWith('@charter/'));
}

// Imports by package name from inside the consumer fixture, where `charter` resolves through node_modules.
const consumer = (await import(join(FIXTURE, 'load.mts'))) as {
  resolveFromConsumer(specifier: string): string;
  importFromConsumer(specifier: string): Promise<Record<string, unknown>>;
};

beforeAll(() => {
  if (!existsSync(join(DIST, 'index.js'))) {
    throw new Error('packages/charter/dist is missing: run `bun run build` before the packaging tests');
  }
  linkCharterInto(FIXTURE);
});

describe('exports map and files agree', () => {
  test('every exports entry has `types` and `default`, and each file exists', () => {
    expect(subpathKeys.length).toBeGreaterThan(0);
    for (const key of subpathKeys) {
      const value = exportsMap[key] as Record<string, unknown>;
      expect({ key, types: typeof value?.types, default: typeof value?.default }).toEqual({
        key,
        types: 'string',
        default: 'string',
      });
    }
    const missing = Object.entries(exportsMap)
      .flatMap(([key, value]) => exportTargets(value).map((target) => ({ key, target })))
      .filter(({ target }) => !existsSync(join(CHARTER_DIR, target)))
      .map(({ key, target }) => `${key} -> ${target}`);
    expect(missing).toEqual([]);
  });

  test('each src entry has an exports entry pointing at its built files, and vice versa', () => {
    const entries = subpathEntries();
    expect(entries.map((e) => e.subpath).sort()).toEqual([...subpathKeys].sort());
    for (const entry of entries) {
      const actual: Record<string, unknown> = {
        subpath: entry.subpath,
        ...(exportsMap[entry.subpath] as object),
      };
      // Bun's runtime takes `bun` (dist/bun: CommonJS with bytecode, tests/packaging/bun-bytecode.test.ts);
      // bundlers take `module`, listed first, so they tree-shake the ESM build; everything else the ESM build.
      const bun = ESM_ONLY_ENTRIES.has(entry.name)
        ? {}
        : { module: `./dist/${entry.name}.js`, bun: bytecodeEntryPath(entry.name) };
      expect(actual).toEqual({
        subpath: entry.subpath,
        types: `./dist/${entry.name}.d.ts`,
        ...bun,
        default: `./dist/${entry.name}.js`,
      });
      expect(Object.keys(actual)).toEqual(['subpath', 'types', ...Object.keys(bun), 'default']);
    }
  });

  test('every workspace package is re-exported by its own subpath (or is listed as internal)', () => {
    const entries = subpathEntries();
    const packages = workspacePackages().filter((p) => p.name !== manifest.name);
    const names = new Set(packages.map((p) => p.name));
    const problems: string[] = [];
    for (const internal of INTERNAL_PACKAGES) {
      if (!names.has(internal.name))
        problems.push(`INTERNAL_PACKAGES lists unknown package ${internal.name}`);
      if (internal.reason.trim() === '')
        problems.push(`INTERNAL_PACKAGES entry ${internal.name} needs a reason`);
    }
    for (const pkg of packages) {
      const all = entries.filter((e) => reExportedPackages(e.file).includes(pkg.name));
      // The root barrel re-exporting a feature is allowed on top of the feature's own subpath.
      const by = pkg.name === '@charter/core' ? all : all.filter((e) => e.name !== 'index');
      const internal = INTERNAL_PACKAGES.some((i) => i.name === pkg.name);
      if (internal) {
        if (by.length > 0)
          problems.push(`${pkg.name} is internal but re-exported by ${by.map((e) => e.subpath)}`);
        continue;
      }
      // The convention: `@charter/core` is the root, `@charter/<name>` is `charter/<name>`.
      const expected = pkg.name === '@charter/core' ? 'index' : pkg.name.replace(/^@charter\//, '');
      if (by.length !== 1) {
        problems.push(
          `${pkg.name} is re-exported by ${by.length} subpaths (${by.map((e) => e.subpath).join(', ') || 'none'}); ` +
            `expected exactly one: packages/charter/src/${expected}.ts, or list it in INTERNAL_PACKAGES`,
        );
      } else if (by[0]?.name !== expected) {
        problems.push(
          `${pkg.name} is re-exported by src/${by[0]?.name}.ts; the convention is src/${expected}.ts`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  test('the published manifest is publishable and depends on no workspace package', () => {
    expect(manifest.private).not.toBe(true);
    expect(manifest.files).toContain('dist');
    const runtimeDeps = {
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...(manifest as { optionalDependencies?: Record<string, string> }).optionalDependencies,
    };
    const leaked = Object.entries(runtimeDeps)
      .filter(([name, range]) => name.startsWith('@charter/') || range.startsWith('workspace:'))
      .map(([name, range]) => `${name}@${range}`);
    expect(leaked).toEqual([]);
  });
});

describe('importing the built package by name', () => {
  for (const subpath of subpathKeys) {
    const specifier = specifierOf(subpath);
    test(`import('${specifier}') loads dist and exposes exports`, async () => {
      const resolved = realpathSync(fileURLToPath(consumer.resolveFromConsumer(specifier)));
      expect(rel(resolved).startsWith('packages/charter/dist/')).toBe(true);
      const namespace = await consumer.importFromConsumer(specifier);
      const kinds = Object.entries(namespace).map(([name, value]) => ({ name, kind: typeof value }));
      if (!kinds.some((k) => k.kind === 'function')) {
        throw new Error(
          `${specifier} exports no function (exports: ${kinds.map((k) => k.name).join(', ') || 'none'})`,
        );
      }
      expect(kinds.filter((k) => !ALLOWED_EXPORT_TYPES.has(k.kind))).toEqual([]);
    });
  }

  test('the root exposes exactly the export names of the packages it re-exports', async () => {
    const rootEntry = subpathEntries().find((e) => e.name === 'index');
    if (!rootEntry) throw new Error('no packages/charter/src/index.ts');
    const reExported = reExportedPackages(rootEntry.file);
    expect(reExported).toContain('@charter/core');
    const names = new Set<string>();
    for (const name of reExported) {
      const pkg = workspacePackages().find((p) => p.name === name);
      if (!pkg) throw new Error(`no ${name} under packages/`);
      const entry = exportTargets((pkg.manifest.exports as Record<string, unknown>)['.'])[0];
      if (!entry) throw new Error(`${name} has no "." export`);
      for (const key of Object.keys(await import(resolve(pkg.dir, entry)))) names.add(key);
    }
    const built = await consumer.importFromConsumer('charter');
    expect(Object.keys(built).sort()).toEqual([...names].sort());
  });

  test('no workspace module is bundled twice in either build (subpaths share chunks or libs, so instanceof works across them)', () => {
    const bunBuild = join(DIST, 'bun') + sep;
    for (const build of ['esm', 'bun'] as const) {
      const maps = walkFiles(DIST).filter(
        (f) => f.endsWith('.js.map') && f.startsWith(bunBuild) === (build === 'bun'),
      );
      expect(maps.length).toBeGreaterThan(1);
      expect({ build, duplicated: duplicatedSources(maps) }).toEqual({ build, duplicated: [] });
    }
  });

  /** Workspace sources that more than one of `maps` bundles. */
  function duplicatedSources(maps: string[]): string[] {
    const owners = new Map<string, string[]>();
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const path = resolve(dirname(map), source);
        if (!path.startsWith(PACKAGES_DIR + sep) || path.startsWith(CHARTER_DIR + sep)) continue;
        owners.set(rel(path), [...(owners.get(rel(path)) ?? []), rel(map)]);
      }
    }
    return [...owners].filter(([, maps]) => maps.length > 1).map(([s, maps]) => `${s}: ${maps}`);
  }

  const node = Bun.which('node');
  test.skipIf(!node)(
    'Node imports every subpath that does not need Bun, with the same exports',
    async () => {
      const script =
        'const ns = await import(process.argv[1]); process.stdout.write(JSON.stringify(Object.keys(ns).sort()));';
      for (const subpath of subpathKeys) {
        const entry = join(
          CHARTER_DIR,
          exportTargets((exportsMap[subpath] as { default: string }).default)[0] ?? '',
        );
        if (importClosure(entry).some((i) => isBunBuiltin(i.specifier))) continue;
        const specifier = specifierOf(subpath);
        const run = Bun.spawnSync([node as string, '--input-type=module', '-e', script, specifier], {
          cwd: FIXTURE,
        });
        const output = `${run.stdout.toString()}${run.stderr.toString()}`;
        if (run.exitCode !== 0) throw new Error(`node failed to import ${specifier}:\n${output}`);
        const inBun = Object.keys(await consumer.importFromConsumer(specifier)).sort();
        expect({ specifier, exports: JSON.parse(run.stdout.toString()) }).toEqual({
          specifier,
          exports: inBun,
        });
      }
      // One Node process per subpath (some 25), each importing its closure: minutes on a loaded 2-core box.
    },
    180_000,
  );
});

interface ClosureImport {
  file: string;
  specifier: string;
  line: number;
}

/** Non-relative imports of a built file and of every file it reaches through relative imports. */
function importClosure(start: string): ClosureImport[] {
  const seen = new Set<string>();
  const queue = [start];
  const external: ClosureImport[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const s of scanSpecifiers(readFileSync(file, 'utf8'))) {
      if (isRelative(s.value)) queue.push(resolve(dirname(file), s.value));
      else external.push({ file: rel(file), specifier: s.value, line: s.line });
    }
  }
  return external;
}

describe('the root entry is runtime-neutral', () => {
  test('dist/index.js and every chunk it imports import no builtin module', () => {
    const root = join(CHARTER_DIR, (exportsMap['.'] as { default: string }).default);
    const closure = importClosure(root).map((i) => `${i.file}:${i.line} imports '${i.specifier}'`);
    expect(closure).toEqual([]);
  });

  test('packages/core/src imports no node or bun builtin', () => {
    const core = workspacePackages().find((p) => p.name === '@charter/core');
    const files = walkFiles(join(core?.dir ?? '', 'src')).filter((f) => f.endsWith('.ts') && !isTestFile(f));
    expect(files.length).toBeGreaterThan(0);
    const violations = files.flatMap((file) =>
      scanSpecifiers(readFileSync(file, 'utf8'))
        .filter((s) => isNodeBuiltin(s.value) || isBunBuiltin(s.value))
        .map((s) => `${rel(file)}:${s.line} imports '${s.value}'`),
    );
    expect(violations).toEqual([]);
  });
});

describe('published declarations', () => {
  test('are self-contained: no @charter/* or .ts specifier, every relative one resolves', () => {
    const problems: string[] = [];
    for (const file of walkFiles(DIST).filter((f) => /\.d\.m?ts$/.test(f))) {
      for (const s of scanSpecifiers(readFileSync(file, 'utf8'))) {
        const where = `${rel(file)}:${s.line} '${s.value}'`;
        if (s.value.startsWith('@charter/') || s.value === 'charter' || s.value.startsWith('charter/')) {
          problems.push(`${where}: workspace specifier`);
        } else if (/\.m?tsx?$/.test(s.value)) {
          problems.push(`${where}: .ts extension`);
        } else if (isRelative(s.value)) {
          if (!existsSync(resolve(dirname(file), s.value.replace(/\.(m?)js$/, '.d.$1ts')))) {
            problems.push(`${where}: does not resolve`);
          }
        } else if (!isNodeBuiltin(s.value) && !isBunBuiltin(s.value)) {
          problems.push(`${where}: package not shipped with charter`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('the consumer fixture imports every subpath', () => {
    const imported = (file: string): string[] =>
      scanSpecifiers(readFileSync(join(FIXTURE, file), 'utf8')).map((s) => s.value);
    const adapters = subpathKeys.filter((key) => key !== '.').map(specifierOf);
    expect(imported('root.mts')).toContain('charter');
    expect([...new Set(imported('adapters.mts'))].sort()).toEqual(adapters.sort());
  });

  for (const tsconfig of FIXTURE_TSCONFIGS) {
    test(`a consumer type-checks (${tsconfig})`, () => {
      const path = join(FIXTURE, tsconfig);
      const run = Bun.spawnSync(['npx', '--no', '--', 'tsc', '-p', path, '--pretty', 'false'], { cwd: ROOT });
      const output = `${run.stdout.toString()}${run.stderr.toString()}`.trim();
      if (run.exitCode !== 0) {
        throw new Error(`tsc -p ${rel(path)} exited with ${run.exitCode}:\n${output}`);
      }
      expect(run.exitCode).toBe(0);
    });
  }
});
