/**
 * The `bun` build of the `charter` package: `dist/bun/`, what Bun's runtime loads through the `bun`
 * export condition, with JavaScriptCore bytecode beside each file so a start skips parsing and compiling
 * the package (bench/README.md, "Start-up": parsing is the floor of `import 'charter'` from ESM; with
 * the bytecode the import costs about half).
 *
 * - Bun keeps bytecode for CommonJS only outside `--compile` (ESM needs the module records a compiled
 *   binary embeds), and CommonJS cannot be code-split, so every subpath must find each module in one
 *   file, as the ESM build's chunks share them: `dist/bun/lib/shared.js` holds every package but the
 *   runtime adapters, each as a namespace (`core`, `jwt`, `jsonRpc`...), and each adapter has a file of
 *   its own (`lib/bun.js`, `lib/node.js`...) that takes the others from `shared.js` (or, for an adapter,
 *   from its file). One shared file rather than one per package: `import 'charter'` then opens and
 *   checks one file instead of nineteen, about a third of its cost (bench/README.md, "Start-up").
 * - Each lib starts with `// @bun @bytecode @bun-cjs` and has `<file>.jsc` beside it. Bun checks the
 *   cache's JavaScriptCore version and the source's hash and length on every load and parses the source
 *   when either differs (another Bun release), so the files are never rewritten after the build; they
 *   are correct on any Bun, and only the start-up gain needs the Bun that built them.
 * - One ESM entry file per subpath, `dist/bun/<name>.js` (`entryFacade`): the same export names as the
 *   ESM build (the build checks), taken from the libs under Bun's runtime and from the ESM build under
 *   Bun's bundler, which cannot read the libs (tests/packaging/bun-bundle.test.ts bundles every way).
 * - `charter/cli` has no `bun` build: its bin finds itself and its package.json through `import.meta.url`,
 *   which CommonJS output would freeze at the build machine's path. It shares nothing stateful with an
 *   app (it reads an App through its methods), so its ESM copy of the banner helpers is harmless.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The first line of every file Bun loads with its bytecode. */
export const BYTECODE_PRAGMA = '// @bun @bytecode @bun-cjs\n';

/** Subpath entries that stay ESM-only (see the header). */
export const ESM_ONLY_ENTRIES: ReadonlySet<string> = new Set(['cli']);

export interface BytecodeEntry {
  /** File stem under `packages/charter/src/`: `index`, `bun`... */
  name: string;
  file: string;
}

export interface BytecodePackage {
  /** `@charter/core`. */
  name: string;
  /** Directory name under `packages/`: `core`. */
  dirName: string;
  dir: string;
}

/** The `dist/bun` path (relative to the package root) of a subpath entry's bytecode build. */
export const bytecodeEntryPath = (name: string): string => `./dist/bun/${name}.js`;

/** Which lib each workspace package goes into. */
interface LibPlan {
  /** Packages in the shared lib, each under its `key`. */
  shared: BytecodePackage[];
  /** Runtime adapters: a subpath re-exports them and the root does not; each has a lib of its own. */
  adapters: BytecodePackage[];
  isAdapter(pkg: BytecodePackage): boolean;
  /** The package named `name` (`@charter/core`), or a build error. */
  source(name: string): BytecodePackage;
}

function planLibs(entries: readonly BytecodeEntry[], packages: readonly BytecodePackage[]): LibPlan {
  const built = packages.filter(
    // An ESM-only entry's own package (`@charter/cli`) is needed by no other.
    (p) => existsSync(join(p.dir, 'src', 'index.ts')) && !ESM_ONLY_ENTRIES.has(p.dirName),
  );
  const byName = new Map(built.map((p) => [p.name, p]));
  const reExports = (file: string) => [...readFileSync(file, 'utf8').matchAll(REEXPORT)].map((m) => m[1]);
  const rootEntry = entries.find((e) => e.name === 'index');
  if (rootEntry === undefined) throw new Error('no index entry');
  const inRoot = new Set(reExports(rootEntry.file));
  const adapterNames = new Set(entries.flatMap((e) => reExports(e.file)).filter((n) => !inRoot.has(n ?? '')));
  const isAdapter = (pkg: BytecodePackage) => adapterNames.has(pkg.name);
  return {
    shared: built.filter((p) => !isAdapter(p)),
    adapters: built.filter(isAdapter),
    isAdapter,
    source(name) {
      const pkg = byName.get(name);
      if (pkg === undefined) throw new Error(`${name} is not a workspace package the bun build holds`);
      return pkg;
    },
  };
}

/** A package's namespace in the shared lib: its directory name as an identifier (`json-rpc` is `jsonRpc`). */
const sharedKey = (pkg: BytecodePackage): string =>
  pkg.dirName.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** The shared lib bundles every shared package from its sources; an adapter in it would be a second copy. */
function sharedPlugin(plan: LibPlan): Bun.BunPlugin {
  return {
    name: 'charter-shared',
    setup(build) {
      build.onResolve({ filter: /^@charter\// }, (args) => {
        const pkg = plan.source(args.path);
        if (plan.isAdapter(pkg)) throw new Error(`${args.importer} imports the adapter ${args.path}`);
        return { path: join(pkg.dir, 'src', 'index.ts') };
      });
    },
  };
}

/** An adapter takes shared packages from the shared lib's namespaces and other adapters from their libs. */
function adapterPlugin(plan: LibPlan): Bun.BunPlugin {
  return {
    name: 'charter-adapter',
    setup(build) {
      build.onResolve({ filter: /^@charter\// }, (args) => {
        const pkg = plan.source(args.path);
        if (plan.isAdapter(pkg)) return { path: `./${pkg.dirName}.js`, external: true };
        return { path: sharedKey(pkg), namespace: 'charter-shared' };
      });
      build.onLoad({ filter: /.*/, namespace: 'charter-shared' }, (args) => ({
        contents: `module.exports = require("./${SHARED_STEM}.js").${args.path};\n`,
        loader: 'js',
      }));
      build.onResolve({ filter: new RegExp(`^\\./${SHARED_STEM}\\.js$`) }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/**
 * Builds `dist/bun/` under `dist`: `packages` (the workspace) into `lib/`, then one file per entry.
 * Resolves the problems found (empty when the output is what charter ships).
 */
export async function buildBunBytecode(
  dist: string,
  entries: readonly BytecodeEntry[],
  packages: readonly BytecodePackage[],
  root: string,
  /** The checks every shipped file passes (scripts/build.ts): its pragma, ASCII, only builtins external. */
  checkFile: (path: string, code: string) => string[],
): Promise<string[]> {
  const out = join(dist, 'bun');
  const lib = join(out, 'lib');
  const plan = planLibs(entries, packages);
  // The shared lib's entry, beside dist so its source map names it by a stable relative path (a
  // temporary folder would put a random machine path in every build's map).
  const scratch = join(dist, '..', SHARED_ENTRY_DIR);
  mkdirSync(scratch, { recursive: true });
  const sharedEntry = join(scratch, `${SHARED_STEM}.ts`);
  writeFileSync(
    sharedEntry,
    plan.shared.map((p) => `export * as ${sharedKey(p)} from '${p.name}';\n`).join(''),
  );
  const failures = (
    await Promise.all([
      compile(sharedEntry, lib, SHARED_STEM, sharedPlugin(plan)),
      ...plan.adapters.map((p) =>
        compile(join(p.dir, 'src', 'index.ts'), lib, p.dirName, adapterPlugin(plan)),
      ),
    ])
  ).flat();
  rmSync(scratch, { recursive: true, force: true });
  if (failures.length > 0) return failures;
  const problems = Array.from(new Bun.Glob('*.js').scanSync({ cwd: lib, absolute: true })).flatMap((file) => [
    ...checkFile(file, readFileSync(file, 'latin1')),
    ...(existsSync(`${file}.jsc`) ? [] : [`${relative(root, file)} has no bytecode beside it`]),
  ]);
  const sharedExports = require(join(lib, `${SHARED_STEM}.js`)) as Record<string, Record<string, unknown>>;
  const libOf = (name: string): FacadeLib => {
    const pkg = plan.source(name);
    if (plan.isAdapter(pkg))
      return { stem: pkg.dirName, ...namesOf(require(join(lib, `${pkg.dirName}.js`))) };
    const key = sharedKey(pkg);
    return { stem: SHARED_STEM, key, ...namesOf(sharedExports[key] ?? {}) };
  };
  for (const entry of entries.filter((e) => !ESM_ONLY_ENTRIES.has(e.name))) {
    const path = join(out, `${entry.name}.js`);
    writeFileSync(path, entryFacade(entry.name, readFileSync(entry.file, 'utf8'), libOf));
    // The contract: under Bun, each subpath exports exactly what the ESM build does.
    const esm = Object.keys(await import(join(dist, `${entry.name}.js`))).sort();
    const bun = Object.keys(await import(path)).sort();
    const missing = esm.filter((n) => !bun.includes(n));
    const extra = bun.filter((n) => !esm.includes(n));
    if (missing.length > 0 || extra.length > 0) {
      problems.push(`${relative(root, path)} differs from the ESM build: missing ${missing}; extra ${extra}`);
    }
  }
  return problems;
}

/** The lib holding every package but the runtime adapters, each as a namespace: `lib/shared.js`. */
export const SHARED_STEM = 'shared';

/** Where the shared lib's generated entry lives during the build, beside `dist` (git-ignored). */
const SHARED_ENTRY_DIR = '.bun-build';

const REEXPORT = /^export (?:\*|\{[^}]*\}) from '(@charter\/[^']+)';$/gm;

/** One CommonJS file with its bytecode: `<outdir>/<stem>.js` and `.jsc`. Resolves its failures. */
async function compile(
  entry: string,
  outdir: string,
  stem: string,
  plugin: Bun.BunPlugin,
): Promise<string[]> {
  const result = await Bun.build({
    entrypoints: [entry],
    outdir,
    naming: `${stem}.js`,
    target: 'bun',
    format: 'cjs',
    bytecode: true,
    sourcemap: 'linked',
    // As the ESM build (scripts/build.ts): fewer bytes, and names a user sees are stated in the sources.
    minify: { whitespace: true, syntax: true, identifiers: true },
    plugins: [plugin],
    external: ['bun'],
    throw: false,
  });
  return result.success ? [] : [`${entry}: ${result.logs.map(String).join('\n  ')}`];
}

/** The export names of a lib (or of a namespace of the shared lib), less the CommonJS interop flag. */
function namesOf(exports: Record<string, unknown>): { names: string[]; exports: Record<string, unknown> } {
  return {
    names: Object.keys(exports).filter((name) => name !== '__esModule' && name !== 'default'),
    exports,
  };
}

const STAR_EXPORT = /^export \* from '(@charter\/[^']+)';$/gm;
const NAMED_EXPORT = /^export \{([^}]*)\} from '(@charter\/[^']+)';$/gm;

/** What an entry file needs of one workspace package's lib. */
export interface FacadeLib {
  /** Stem of the lib file: `shared` for `lib/shared.js`, `bun` for `lib/bun.js`. */
  stem: string;
  /** The package's namespace in that lib (the shared lib's `core`, `jwt`...); none for an adapter's own lib. */
  key?: string;
  names: string[];
  exports: Record<string, unknown>;
}

/**
 * The file Bun loads for one subpath entry (`packages/charter/src/<name>.ts`, which only re-exports
 * workspace packages). ESM that names each export, so the namespace is exactly the ESM build's (an
 * `export *` of CommonJS passes on its `__esModule` flag, and CommonJS imported directly adds a
 * `default`, so `import charter from 'charter'` would work on Bun and fail on Node). As in ESM, a name
 * two `export *` give is left out, and a name exported by name wins over a star.
 *
 * Where the values come from depends on who reads the file:
 * - Bun's runtime, running the installed file (its URL ends in `/dist/bun/<name>.js`, and as an ES
 *   module it has no `exports`): the libs, required by a path computed at run time, with their bytecode.
 * - Bun's bundler (`bun build`, `--compile`), which cannot read the libs' bytecode form (it sees a
 *   function expression and no exports): the bundle's URL is its own, and a CommonJS bundle has
 *   `exports`, so the file takes the ESM build, which the literal `require` lets the bundler include.
 *   Bundles that want the ESM build's tree shaking pass `--conditions=module` (the `module` condition
 *   comes first in the exports map).
 * A lib that cannot be found (a copy without `lib/`) falls back to the ESM build as well.
 */
export function entryFacade(name: string, source: string, libOf: (pkg: string) => FacadeLib): string {
  const named = new Map<string, string>();
  for (const [, list = '', pkg = ''] of source.matchAll(NAMED_EXPORT)) {
    for (const item of list.split(',').map((n) => n.trim())) {
      if (item === '' || item.startsWith('type ')) continue;
      if (item.includes(' as ')) {
        throw new Error(`entry re-exports ${item} under another name, which the bun build does not map`);
      }
      named.set(item, pkg);
    }
  }
  const starFrom = new Map<string, string[]>();
  for (const [, pkg = ''] of source.matchAll(STAR_EXPORT)) {
    for (const exported of libOf(pkg).names) starFrom.set(exported, [...(starFrom.get(exported) ?? []), pkg]);
  }
  const byPkg = new Map<string, string[]>();
  const add = (pkg: string, exported: string) => byPkg.set(pkg, [...(byPkg.get(pkg) ?? []), exported]);
  for (const [exported, pkg] of named) add(pkg, exported);
  for (const [exported, pkgs] of starFrom) {
    if (named.has(exported)) continue;
    // Two stars giving one binding (a package re-exporting the core's) are not ambiguous in ESM; the libs
    // only show values, so the same value stands for the same binding (the build checks the result
    // against the ESM build's names).
    const value = libOf(pkgs[0] as string).exports[exported];
    if (pkgs.every((pkg) => libOf(pkg).exports[exported] === value)) add(pkgs[0] as string, exported);
  }
  const stems = [...new Set([...byPkg.keys()].map((pkg) => libOf(pkg).stem))];
  const self = `/dist/bun/${name}.js`;
  const esmBuild = JSON.stringify(`../${name}.js`);
  const lines = [
    // `// @bun`: the runtime runs the file as it is, without transpiling it, so `require` is not defined
    // in it; the bundler still sees the literal `require` of the ESM build and includes it.
    '// @bun',
    `// charter${name === 'index' ? '' : `/${name}`} for Bun's runtime: see scripts/build-bun-bytecode.ts (entryFacade).`,
    `// The libs' bytecode was built by Bun ${Bun.version}; another release parses their source instead.`,
    'import { createRequire } from "node:module";',
    `const installed = typeof exports === "undefined" && import.meta.url.endsWith(${JSON.stringify(self)});`,
    'const load = installed ? createRequire(import.meta.url) : undefined;',
    'const lib = (stem) => {',
    '  try {',
    '    return load("./lib/" + stem + ".js");',
    '  } catch (error) {',
    '    if (error?.code === "MODULE_NOT_FOUND") return undefined;',
    '    throw error;',
    '  }',
    '};',
    `const libs = installed ? [${stems.map((stem) => JSON.stringify(stem)).join(', ')}].map(lib) : [];`,
    'const esm =',
    '  libs.length > 0 && libs.every((l) => l !== undefined)',
    '    ? undefined',
    `    : typeof require === "function" ? require(${esmBuild}) : createRequire(import.meta.url)(${esmBuild});`,
    ...[...byPkg].map(([pkg, names]) => {
      const { stem, key } = libOf(pkg);
      const from = `libs[${stems.indexOf(stem)}]${key === undefined ? '' : `.${key}`}`;
      return `export const { ${names.sort().join(', ')} } = esm ?? ${from};`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
