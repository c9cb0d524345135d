/**
 * `bun run site:compile [outfile]`: builds the documentation site into one executable (default
 * `dist/charter-site`) with the content already built: every file of `content/` is parsed,
 * rendered and checked here, as `bun run site` does at start-up (a broken page fails the build),
 * and the module `site/content/embedded.ts` is replaced by one that holds the result as plain data,
 * so the binary needs no `content/` directory beside it and renders no Markdown when it starts.
 * Styles and icons are modules already. The bundle is also compiled to bytecode, so the binary
 * does not parse its JavaScript at each start.
 *
 * What the site loads on first use (`site/lazy-modules.ts`: the machine routes, arktype, the JWT
 * signer and verifier, the Redis quota) is a second entry point of the executable, not part of the main bundle (issue 18, item 6):
 * each start loads the bytecode of all of the main bundle's code, used or not, and one module loaded
 * lazily inside a bundle has the bundler wrap every module it imports (the whole core) in an
 * initialiser, all run at start. The lazy entry takes the modules it shares with the main bundle
 * (the core, the content...) from the main bundle itself, through a registry the main entry fills,
 * so there is one of each module, class and cache, as when the site runs from source.
 */
import { realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildContent } from '../site/content/build.ts';
import { contentData, embeddedContentModule } from '../site/content/prebuilt.ts';
import { readContentDir } from '../site/content/read-dir.ts';
import { documentTemplate } from '../site/html/document-template.ts';

/**
 * charter's ESM build, which the bundler tree-shakes and splits: under the `bun` condition charter's
 * entries hand a bundler the whole ESM build through `require` (their libs are bytecode only Bun's runtime
 * reads; scripts/build-bun-bytecode.ts), and `module` comes before `bun` in its exports map.
 */
const BUNDLE_CONDITIONS = ['module'];

const ROOT = resolve(import.meta.dir, '..');
const MAIN_ENTRY = join(ROOT, 'site', 'main.ts');
const LAZY_ENTRY = join(ROOT, 'site', 'lazy-modules.ts');

/**
 * The JIT tier-up thresholds the executable starts with, as a multiple of JavaScriptCore's
 * (`compile.jitPolicy`): start-up code runs once, and compiling it on the JIT's threads cost more CPU
 * than it saved (issue 18, item 6: spawn to first 200, CPU median about 15 ms less at 10 than at 1;
 * 3 saves less, 100 and 1000 no more). `site/main.ts` sets the normal policy back once it listens.
 */
export const STARTUP_JIT_POLICY = 10;

/**
 * Each load the site makes on first use, by file and specifier, and the export of
 * `site/lazy-modules.ts` that answers it in the executable.
 */
export const LAZY_LOADS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'site/app.ts': { './problems.ts': 'problems', './api/machine-routes.ts': 'machineRoutes' },
  'site/api/header-specs.ts': { arktype: 'arktype', './header-schemas.ts': 'headerSchemas' },
  'site/main.ts': { './quota.ts': 'quota' },
  'site/oauth/tokens.ts': { '@charter/jwt': 'jwt' },
};

/** Where the main entry leaves the shared modules and the loader of the lazy entry. */
const SHARED_KEY = 'charter.site.shared';
const LAZY_KEY = 'charter.site.lazy';
const LAZY_MODULES = `(globalThis as any)[Symbol.for(${JSON.stringify(LAZY_KEY)})]()`;
// `require(` or `import(` of a literal, not `typeof import(...)` (a type).
const LOAD_CALL = /(?<!typeof\s+)\b(require|import)\((['"])([^'"\n]+)\2\)/g;

const real = (path: string): string => realpathSync(path);
/** A path relative to the repository, with `/`. */
const key = (path: string): string => relative(ROOT, path).split('\\').join('/');

/**
 * `file`'s code with each load of `LAZY_LOADS` sent to the lazy entry: `require('x')` becomes its
 * export, `import('x')` a promise of it. Throws when a listed load is no longer in the file.
 */
export function redirectLazyLoads(file: string, code: string): string {
  const loads = LAZY_LOADS[file] ?? {};
  const found = new Set<string>();
  const out = code.replace(LOAD_CALL, (call, how: string, _quote: string, specifier: string) => {
    const name = loads[specifier];
    if (name === undefined) return call;
    found.add(specifier);
    const value = `${LAZY_MODULES}.${name}`;
    return how === 'require' ? value : `Promise.resolve(${value})`;
  });
  const missing = Object.keys(loads).filter((specifier) => !found.has(specifier));
  if (missing.length > 0) {
    throw new Error(`site-compile: ${file} no longer loads ${missing.join(', ')}: update LAZY_LOADS`);
  }
  return out;
}

const redirectLazy: Bun.BunPlugin = {
  name: 'charter-site-lazy-loads',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]site[\\/](app|main|api[\\/]header-specs|oauth[\\/]tokens)\.ts$/ },
      async (args) => ({
        contents: redirectLazyLoads(key(args.path), await Bun.file(args.path).text()),
        loader: 'ts',
      }),
    );
  },
};

/** The content module as literals (prebuilt.ts), with the same exports as in source form. */
function embedContent(data: ReturnType<typeof contentData>, templates: unknown[]): Bun.BunPlugin {
  return {
    name: 'charter-embed-content',
    setup(build) {
      build.onLoad({ filter: /[\\/]site[\\/]content[\\/]embedded\.ts$/ }, () => ({
        contents: embeddedContentModule(data, templates as Parameters<typeof embeddedContentModule>[1]),
        loader: 'ts',
      }));
    },
  };
}

/**
 * The modules of an entry's bundle (real paths), each with what it imports. Bun's metafile leaves out
 * the modules behind a dynamic `import()` (the Redis package's `import('@charter/a2a')`), which the
 * bundle holds all the same: each such target is walked as an entry of its own.
 */
async function moduleGraph(entry: string, content: Bun.BunPlugin): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  const cwd = process.cwd();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (graph.has(next)) continue;
    const result = await Bun.build({
      entrypoints: [next],
      plugins: [content, redirectLazy],
      format: 'esm',
      target: 'bun',
      conditions: BUNDLE_CONDITIONS,
      metafile: true,
    });
    if (!result.success || result.metafile === undefined) {
      for (const log of result.logs) console.error(log);
      throw new Error(`site-compile: cannot bundle ${key(next)}`);
    }
    for (const [path, input] of Object.entries(result.metafile.inputs)) {
      const from = real(resolve(cwd, path));
      const imports: string[] = [];
      for (const edge of input.imports) {
        if (edge.external) continue;
        if (entry === MAIN_ENTRY && (edge.kind === 'require-call' || edge.kind === 'dynamic-import')) {
          // Loaded lazily inside the main bundle, it would have the bundler wrap every module it imports.
          throw new Error(
            `site-compile: ${key(from)} loads ${edge.path} on first use: add it to site/lazy-modules.ts and LAZY_LOADS`,
          );
        }
        const target = real(resolve(cwd, edge.path));
        imports.push(target);
        if (edge.kind === 'dynamic-import') pending.push(target);
      }
      graph.set(from, imports);
    }
  }
  return graph;
}

// Static imports and re-exports: `import a, { b, c as d } from 'x'`, `export { e } from 'x'`,
// `import * as ns from 'x'`, `export * from 'x'`, and `import type` (nothing at run time).
const STATIC_IMPORT = /\b(import|export)\s+(type\s+)?([\w$\s{},*]*?)\s*from\s*(['"])([^'"\n]+)\4/g;
const DYNAMIC_IMPORT = /\bimport\((['"])([^'"\n]+)\1\)/g;
/** Every export of the module: what a namespace import, `export *` or `import()` needs. */
const ALL = '*';

/**
 * What the lazy entry's modules import from each shared module, by name (`ALL` for a namespace):
 * the main bundle then keeps only those of a shared module's exports that it or the lazy entry uses,
 * not the whole core. A name missed here fails the build (the virtual module would lack the export).
 */
async function importedNames(
  lazyOnly: ReadonlySet<string>,
  shared: ReadonlySet<string>,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const need = (target: string, name: string): void => {
    const names = out.get(target) ?? new Set<string>();
    names.add(name);
    out.set(target, names);
  };
  for (const importer of lazyOnly) {
    if (!/\.[cm]?[jt]sx?$/.test(importer)) continue;
    const code = await Bun.file(importer).text();
    const targetOf = (specifier: string): string | undefined => {
      try {
        const target = real(Bun.resolveSync(specifier, dirname(importer)));
        return shared.has(target) ? target : undefined;
      } catch {
        return undefined;
      }
    };
    for (const match of code.matchAll(STATIC_IMPORT)) {
      const [, how, typeOnly, clause = '', , specifier = ''] = match;
      const target = targetOf(specifier);
      if (target === undefined || typeOnly !== undefined) continue;
      const braces = /\{([^}]*)\}/.exec(clause);
      const outside = clause
        .replace(/\{[^}]*\}/, '')
        .replace(/,/g, ' ')
        .trim();
      if (outside.includes('*')) need(target, ALL);
      else if (outside !== '' && how === 'import') need(target, 'default');
      for (const part of braces?.[1]?.split(',') ?? []) {
        const words = part.trim().split(/\s+/);
        if (words[0] === '' || words[0] === 'type') continue;
        need(target, words[0] as string);
      }
    }
    for (const match of code.matchAll(DYNAMIC_IMPORT)) {
      const target = targetOf(match[2] ?? '');
      if (target !== undefined) need(target, ALL);
    }
  }
  return out;
}

/** The main entry fills the registry: what the lazy entry uses of each shared module, and the lazy entry's loader. */
function exposeShared(shared: ReadonlyMap<string, readonly string[]>): Bun.BunPlugin {
  return {
    name: 'charter-site-expose-shared',
    setup(build) {
      build.onLoad({ filter: /[\\/]site[\\/]main\.ts$/ }, async (args) => {
        const head: string[] = [];
        const entries: string[] = [];
        [...shared].forEach(([path, names], i) => {
          const locals = names.map((name, j) => [name, `__shared${i}_${j}`] as const);
          head.push(
            `import { ${locals.map(([name, local]) => `${name} as ${local}`).join(', ')} } from ${JSON.stringify(path)};`,
          );
          entries.push(
            `  ${JSON.stringify(key(path))}: { ${locals.map(([name, local]) => `${JSON.stringify(name)}: ${local}`).join(', ')} },`,
          );
        });
        head.push(
          `(globalThis as any)[Symbol.for(${JSON.stringify(SHARED_KEY)})] = {`,
          ...entries,
          '};',
          'let __lazyModules: unknown;',
          // Beside the main bundle in the executable's file system: `/$bunfs/root/lazy-modules.js`.
          'const __lazyPath = `${import.meta.dir}/lazy-modules.js`;',
          `(globalThis as any)[Symbol.for(${JSON.stringify(LAZY_KEY)})] = () => (__lazyModules ??= require(__lazyPath));`,
        );
        const code = redirectLazyLoads(key(args.path), await Bun.file(args.path).text());
        return { contents: `${head.join('\n')}\n${code}`, loader: 'ts' };
      });
    },
  };
}

/** In the lazy entry's bundle, a shared module is the main bundle's: its exports read from the registry. */
function importShared(lazyOnly: ReadonlySet<string>, names: ReadonlyMap<string, string[]>): Bun.BunPlugin {
  return {
    name: 'charter-site-import-shared',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.importer === '' || !lazyOnly.has(real(args.importer))) return undefined;
        let target: string;
        try {
          target = real(Bun.resolveSync(args.path, dirname(args.importer)));
        } catch {
          return undefined;
        }
        // A path of its own: the bundler must never take it for the module itself.
        return names.has(target)
          ? { path: `shared:${key(target)}`, namespace: 'charter-site-shared' }
          : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'charter-site-shared' }, (args) => {
        const path = args.path.slice('shared:'.length);
        const lines = [
          `const m = globalThis[Symbol.for(${JSON.stringify(SHARED_KEY)})][${JSON.stringify(path)}];`,
        ];
        for (const name of names.get(join(ROOT, path)) ?? []) {
          lines.push(name === 'default' ? 'export default m.default;' : `export const ${name} = m.${name};`);
        }
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };
}

async function main(): Promise<void> {
  const outfile = resolve(process.argv[2] ?? join(ROOT, 'dist', 'charter-site'));
  const site = buildContent(await readContentDir(join(ROOT, 'content')));
  const data = contentData(site);
  // Every page's document rendered now, its origin left open (html/document-template.ts).
  const templates = site.pages.map((page) => documentTemplate(site, page));
  const content = embedContent(data, templates);

  const mainGraph = await moduleGraph(MAIN_ENTRY, content);
  const lazyGraph = await moduleGraph(LAZY_ENTRY, content);
  // Modules only the lazy entry has, and the main bundle's modules they import (the shared ones).
  const lazyOnly = new Set<string>();
  const shared = new Set<string>();
  for (const [path, imports] of lazyGraph) {
    if (mainGraph.has(path)) continue;
    lazyOnly.add(path);
    for (const imported of imports) if (mainGraph.has(imported)) shared.add(imported);
  }
  // What the lazy entry uses of each: those exports (every one for a namespace), checked to exist.
  const wanted = await importedNames(lazyOnly, shared);
  const names = new Map<string, string[]>();
  for (const path of shared) {
    const exported = Object.keys(await import(path));
    const used = wanted.get(path) ?? new Set<string>();
    const list = used.has(ALL) ? exported : [...used].filter((name) => exported.includes(name));
    const unknown = [...used].filter((name) => name !== ALL && !exported.includes(name));
    if (unknown.length > 0) {
      throw new Error(
        `site-compile: ${key(path)} has no export ${unknown.join(', ')} (imported by the lazy entry)`,
      );
    }
    names.set(path, list);
  }

  const result = await Bun.build({
    entrypoints: [MAIN_ENTRY, LAZY_ENTRY],
    compile: { outfile, jitPolicy: STARTUP_JIT_POLICY },
    plugins: [content, exposeShared(names), redirectLazy, importShared(lazyOnly, names)],
    format: 'esm',
    conditions: BUNDLE_CONDITIONS,
    bytecode: true,
    minify: true,
    sourcemap: 'none',
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  const rendered = templates.filter((parts) => parts !== undefined).length;
  console.log(
    `Built ${outfile} with ${data.pages.length} pages of content embedded, ${rendered} rendered; ` +
      `${lazyOnly.size} modules loaded on first use (site/lazy-modules.ts), ${names.size} shared with the main bundle ` +
      `(${[...names.values()].reduce((n, list) => n + list.length, 0)} exports)`,
  );
}

if (import.meta.main) await main();
