/**
 * Type-checking cost of a large typed app: `bun bench/types/check.ts [N ...] [options]`.
 *
 * For each N (default 50 200 1000), generates an app of N routes registered in one chain, as users
 * write it for the typed client (`new App().get(...).post(...)...`, GET, POST, PUT, PATCH and DELETE
 * in turn), each with its own arktype params, query and 200 response schemas (and a 404 problem schema
 * shared by all), a handler that reads the typed context, and a `createClient(app)` calling every
 * tenth operation and narrowing its answer. The file goes to a temporary directory with a strict
 * tsconfig (skipLibCheck) whose `node_modules` links `charter` (the built package: run `bun run build`
 * first) and `arktype`, as a user's project sees them. Then the repo's TypeScript 7 runs
 * `tsc --noEmit --extendedDiagnostics` on it; the check must pass without errors.
 *
 * Prints, per variant and N: tsc's check time, total time, memory used, instantiation and type counts,
 * the wall time, CPU time and peak RSS of the tsc process, and the ratios of the largest N to the next
 * smaller one. On a busy machine the times drift; the counts and memory do not.
 *
 * Options:
 *   --variant app,grouped,definitions,routes,unchained,builder,syntax,schemas,inferred,needed,standard
 *                    what to generate (default app): `app` is the routes and the typed client,
 *                    `grouped` the same routes as a chain of `group()`s of 50 chained routes each
 *                    (`--group-size K`; prefixes `/g0`, `/g1`...), with the same typed client,
 *                    `definitions` the same with the routes given to one `registerRoutes([...])` as
 *                    `defineRoute({...})` elements (siblings in the syntax tree, where a chain nests
 *                    each call in the next: tsc walks that nesting when it sorts the members of
 *                    every object type declared in it, so a long chain costs more per route),
 *                    `routes` the chain alone; `unchained` the same routes registered one statement
 *                    each (`app.get(...);`), so the App's type records nothing and the syntax is
 *                    flat (what `routes` costs beyond it is the chain's); `builder` the same
                    chain, character for character, through the least typing a contract-first
                    builder can do, declared in the file instead of Charter (each method infers the
                    request and responses objects, types the handler's context from the output
                    types of params, query and body, and checks its answer against the input type
                    of the response schema for its status; it records no route, so no typed client):
                    what tsc charges for this shape of code before any framework's own types;
                    `syntax` the same chain through an untyped builder (no inference, context `any`),
                    what the syntax and arktype's `type()` calls cost alone; `schemas` the same arktype
 *                    schemas as constants, no Charter; `inferred` those schemas and the input and
 *                    output type of each, which anything typed through Standard Schema has the
 *                    compiler compute (the floor: Charter cannot type a route for less);
 *                    `needed` those schemas and only the types a handler reads (the output of
 *                    params and query, the input of the response), through arktype's own
 *                    `infer`/`inferIn`; `standard` those schemas and the type of each one's
 *                    `~standard` member, all a library-neutral reader can start from: arktype
 *                    computes both the input and the output type to build it, so `standard` costs
 *                    what `inferred` does and more than `needed`. Charter reads arktype's own
 *                    `inferIn`/`inferOut` and never resolves `~standard` (`DeclaredSchema`), so its
 *                    floor is `needed`
 *   --bodies         POST, PUT and PATCH routes get a body schema too
 *   --runs K         median of K runs (default 1), taken in rounds over the variants
 *   --group-size K   routes per group in the `grouped` variant (default 50)
 *   --single-threaded
 *                    pass --singleThreaded to tsc
 *   --charter DIR    check against the `charter` package in DIR (default packages/charter), e.g. one
 *                    built from another commit, to compare
 *   --keep           leave the generated projects in place and print where they are
 *   --pprof-dir DIR  pass --pprofDir DIR to tsc (a CPU and a memory profile per run; read them with
 *                    `bun bench/types/pprof.ts`, with --single-threaded for one checker's profile)
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from '../median.ts';

const ROOT = resolve(import.meta.dir, '../..');
const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

export type Variant =
  | 'app'
  | 'grouped'
  | 'definitions'
  | 'routes'
  | 'unchained'
  | 'builder'
  | 'syntax'
  | 'schemas'
  | 'inferred'
  | 'needed'
  | 'standard';
const VARIANTS: readonly Variant[] = [
  'app',
  'grouped',
  'definitions',
  'routes',
  'unchained',
  'builder',
  'syntax',
  'schemas',
  'inferred',
  'needed',
  'standard',
];
type SchemaVariant = 'schemas' | 'inferred' | 'needed' | 'standard';
const SCHEMA_VARIANTS: ReadonlySet<Variant> = new Set<Variant>(['schemas', 'inferred', 'needed', 'standard']);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Routes per group in the `grouped` variant (`--group-size`). */
const DEFAULT_GROUP_SIZE = 50;
const WITH_BODY = new Set<string>(['post', 'put', 'patch']);

interface RouteParts {
  method: (typeof METHODS)[number];
  path: string;
  schemas: { params: string; query: string; body?: string; response: string };
}

function routeParts(i: number, bodies: boolean): RouteParts {
  const method = METHODS[i % METHODS.length] as (typeof METHODS)[number];
  return {
    method,
    path: `/r${i}/items/:id`,
    schemas: {
      params: `type({ id: 'string' })`,
      query: `type({ 'limit?': 'string.integer.parse', f${i}: 'string' })`,
      ...(bodies && WITH_BODY.has(method)
        ? { body: `type({ name: 'string', 'tags?': 'string[]', b${i}: 'number' })` }
        : {}),
      response: `type({ id: 'string', name: 'string', n${i}: 'number', 'tags?': 'string[]' })`,
    },
  };
}

function routeSource(i: number, bodies: boolean): string {
  const { method, path, schemas } = routeParts(i, bodies);
  const request = [`params: ${schemas.params}`, `query: ${schemas.query}`];
  if (schemas.body !== undefined) request.push(`body: ${schemas.body}`);
  const name = schemas.body === undefined ? `ctx.query.f${i}` : 'ctx.body.name';
  return [
    `  .${method}(`,
    `    '${path}',`,
    '    {',
    `      operationId: 'op${i}',`,
    `      request: { ${request.join(', ')} },`,
    `      responses: { 200: { body: ${schemas.response} }, 404: { body: Problem } },`,
    '    },',
    `    (ctx) => ({ status: 200, body: { id: ctx.params.id, name: ${name}, n${i}: ctx.query.limit ?? 0 } }),`,
    '  )',
  ].join('\n');
}

/** The same route as `defineRoute({ method, path, ... handler })`, an element of `registerRoutes([...])`. */
function definitionSource(i: number, bodies: boolean): string {
  const chained = routeSource(i, bodies).split('\n');
  const { method, path } = routeParts(i, bodies);
  return [
    '  defineRoute({',
    `    method: '${method.toUpperCase()}',`,
    `    path: '${path}',`,
    // operationId, request and responses, as the chained call has them (one level less indented).
    ...chained.slice(3, 6).map((line) => line.slice(2)),
    `    handler: ${chained[7]?.trim()}`,
    '  }),',
  ].join('\n');
}

function callSource(i: number, bodies: boolean): string {
  const { schemas } = routeParts(i, bodies);
  const body = schemas.body === undefined ? '' : `, body: { name: 'n', b${i}: 1 }`;
  return [
    `  const r${i} = await client.op${i}({ params: { id: 'x' }, query: { f${i}: 'a', limit: '5' }${body} });`,
    `  if (r${i}.status === 200) total += r${i}.body.n${i};`,
    `  else total += r${i}.body.status;`,
  ].join('\n');
}

/**
 * The floors' builders (`builder`, `syntax`): declared in the generated file in place of `App`, with
 * the methods the chain calls. `builder` is the least a contract-first builder must type: the handler
 * reads `ctx.params`, `ctx.query` and `ctx.body` as the schemas' output types (arktype's `infer`), and
 * its answer is checked against the input type (`inferIn`) of the response schema of its status.
 */
const FLOOR_BUILDERS = {
  builder: [
    'type Output<S> = S extends { infer: infer O } ? O : never;',
    'type Input<S> = S extends { inferIn: infer I } ? I : never;',
    'type Context<Q> = {',
    '  params: Q extends { params: infer S } ? Output<S> : {};',
    '  query: Q extends { query: infer S } ? Output<S> : {};',
    '  body: Q extends { body: infer S } ? Output<S> : undefined;',
    '};',
    'type Answer<R> = { [K in keyof R]: { status: K; body: R[K] extends { body: infer S } ? Input<S> : never } }[keyof R];',
    'type Method = <Q, R>(',
    '  path: string,',
    '  contract: { operationId?: string; request?: Q; responses: R },',
    '  handler: (ctx: Context<NoInfer<Q>>) => Answer<NoInfer<R>>,',
    ') => Builder;',
  ],
  syntax: ['type Method = (path: string, contract: unknown, handler: (ctx: any) => unknown) => Builder;'],
} as const;

function floorBuilderSource(variant: 'builder' | 'syntax'): string[] {
  return [
    ...FLOOR_BUILDERS[variant],
    'interface Builder { get: Method; post: Method; put: Method; patch: Method; delete: Method }',
    'declare class App implements Builder {',
    '  constructor(options: { logger: false });',
    '  get: Method; post: Method; put: Method; patch: Method; delete: Method;',
    '}',
  ];
}

/** The types of one schema a variant has the compiler compute (`schemas`: none). */
function schemaTypes(variant: SchemaVariant, value: string, key: string): string[] {
  if (variant === 'inferred') return [`typeof ${value}.inferIn`, `typeof ${value}.infer`];
  if (variant === 'standard') return [`(typeof ${value})['~standard']`];
  if (variant === 'needed')
    return [key === 'params' || key === 'query' ? `typeof ${value}.infer` : `typeof ${value}.inferIn`];
  return [];
}

function schemasSource(n: number, bodies: boolean, variant: SchemaVariant): string[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const { schemas } = routeParts(i, bodies);
    const members = Object.entries(schemas).map(([key, schema]) => `${key}: ${schema}`);
    lines.push(`export const s${i} = { ${members.join(', ')} };`);
    const types = Object.keys(schemas).flatMap((key) => schemaTypes(variant, `s${i}.${key}`, key));
    if (types.length > 0) lines.push(`export type S${i} = [${types.join(', ')}];`);
  }
  return lines;
}

/** The source of the generated project's one file. */
export function generate(
  variant: Variant,
  n: number,
  bodies = false,
  groupSize = DEFAULT_GROUP_SIZE,
): string {
  const lines = [`import { type } from 'arktype';`];
  if (SCHEMA_VARIANTS.has(variant)) {
    lines.push(...schemasSource(n, bodies, variant as SchemaVariant));
    return `${lines.join('\n')}\n`;
  }
  if (variant === 'builder' || variant === 'syntax') lines.push(...floorBuilderSource(variant));
  else lines.push(`import { App${variant === 'definitions' ? ', defineRoute' : ''} } from 'charter';`);
  const typedClient = variant === 'app' || variant === 'grouped' || variant === 'definitions';
  if (typedClient) lines.push(`import { createClient } from 'charter/client';`);
  lines.push('', `const Problem = type({ title: 'string', status: 'number' });`, '');
  if (variant === 'unchained') {
    lines.push('export const app = new App({ logger: false });');
    for (let i = 0; i < n; i++) lines.push(`app${routeSource(i, bodies).trimStart()};`);
    return `${lines.join('\n')}\n`;
  }
  if (variant === 'definitions') {
    lines.push('export const app = new App({ logger: false }).registerRoutes([');
    for (let i = 0; i < n; i++) lines.push(definitionSource(i, bodies));
    lines.push(']);');
  } else if (variant === 'grouped') {
    // The same routes as chained groups of `groupSize` (prefixes /g0, /g1...): the chain of groups
    // and each group's own chain are short, so no route's literals sit N calls deep.
    lines.push('export const app = new App({ logger: false })');
    for (let start = 0; start < n; start += groupSize) {
      lines.push(`  .group('/g${start / groupSize}', {}, (g) => g`);
      for (let i = start; i < Math.min(n, start + groupSize); i++) lines.push(routeSource(i, bodies));
      lines[lines.length - 1] += ')';
    }
    lines[lines.length - 1] += ';';
  } else {
    lines.push('export const app = new App({ logger: false })');
    for (let i = 0; i < n; i++) lines.push(routeSource(i, bodies));
    lines[lines.length - 1] += ';';
  }
  if (typedClient) {
    lines.push('', `export const client = createClient(app, { baseUrl: 'https://api.example.com' });`, '');
    lines.push('export async function calls(): Promise<number> {', '  let total = 0;');
    for (let i = 0; i < n; i += 10) lines.push(callSource(i, bodies));
    lines.push('  return total;', '}');
  }
  return `${lines.join('\n')}\n`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'Preserve',
    moduleResolution: 'bundler',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  files: ['app.ts'],
};

/** Writes the project into a fresh temporary directory and returns its path. */
export function writeProject(
  variant: Variant,
  n: number,
  options: { bodies?: boolean; charter?: string; groupSize?: number } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), `charter-types-${variant}-${n}-`));
  writeFileSync(join(dir, 'app.ts'), generate(variant, n, options.bodies ?? false, options.groupSize));
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  mkdirSync(join(dir, 'node_modules'));
  const charter = options.charter ?? join(ROOT, 'packages', 'charter');
  symlinkSync(resolve(charter), join(dir, 'node_modules', 'charter'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'arktype'), join(dir, 'node_modules', 'arktype'), 'dir');
  return dir;
}

export interface Figures {
  checkSeconds: number;
  totalSeconds: number;
  memoryMB: number;
  instantiations: number;
  types: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMB: number;
}

function diagnostic(output: string, label: string): number {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)([sK]?)`, 'm').exec(output);
  if (match === null) throw new Error(`tsc printed no "${label}" line:\n${output}`);
  const value = Number(match[1]);
  return match[2] === 'K' ? value / 1024 : value;
}

/** Runs tsc on a generated project; throws with tsc's output when the check fails. */
export function check(dir: string, singleThreaded = false, pprofDir?: string): Figures {
  const args = [TSC, '-p', join(dir, 'tsconfig.json'), '--extendedDiagnostics'];
  if (singleThreaded) args.push('--singleThreaded');
  if (pprofDir !== undefined) args.push('--pprofDir', resolve(pprofDir));
  const started = performance.now();
  const result = Bun.spawnSync(args, { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  const wallSeconds = (performance.now() - started) / 1000;
  const output = result.stdout.toString() + result.stderr.toString();
  if (result.exitCode !== 0) throw new Error(`tsc failed on ${dir} (exit ${result.exitCode}):\n${output}`);
  const usage = result.resourceUsage;
  return {
    checkSeconds: diagnostic(output, 'Check time'),
    totalSeconds: diagnostic(output, 'Total time'),
    memoryMB: diagnostic(output, 'Memory used'),
    instantiations: diagnostic(output, 'Instantiations'),
    types: diagnostic(output, 'Types'),
    wallSeconds,
    // Microseconds, of tsc and its children (the npm `tsc` is a Node shim that runs the native binary).
    cpuSeconds: usage === undefined ? Number.NaN : Number(usage.cpuTime.total) / 1e6,
    // Bytes.
    peakRssMB: usage === undefined ? Number.NaN : usage.maxRSS / 1024 / 1024,
  };
}

function medianFigures(runs: readonly Figures[]): Figures {
  const pick = (key: keyof Figures) => median(runs.map((run) => run[key]));
  return {
    checkSeconds: pick('checkSeconds'),
    totalSeconds: pick('totalSeconds'),
    memoryMB: pick('memoryMB'),
    instantiations: pick('instantiations'),
    types: pick('types'),
    wallSeconds: pick('wallSeconds'),
    cpuSeconds: pick('cpuSeconds'),
    peakRssMB: pick('peakRssMB'),
  };
}

/**
 * A copy of the built `charter` package (its manifest and `dist/`) in a temporary directory, so a
 * `bun run build` started meanwhile in the same checkout cannot change what is measured halfway.
 */
export function snapshotCharter(charter = join(ROOT, 'packages', 'charter')): string {
  const parent = mkdtempSync(join(tmpdir(), 'charter-types-package-'));
  // What the declarations import (node:*, bun, @opentelemetry/api...) resolves as from the checkout.
  symlinkSync(join(ROOT, 'node_modules'), join(parent, 'node_modules'), 'dir');
  const dir = join(parent, 'charter');
  mkdirSync(dir);
  cpSync(join(charter, 'package.json'), join(dir, 'package.json'));
  cpSync(join(charter, 'dist'), join(dir, 'dist'), { recursive: true });
  for (const entry of ['index.d.ts', 'client.d.ts']) {
    if (!existsSync(join(dir, 'dist', entry))) throw new Error(`${charter}/dist/${entry} is missing`);
  }
  return dir;
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of new Bun.Glob('**/*.ts').scanSync({ cwd: dir })) {
    newest = Math.max(newest, statSync(join(dir, entry)).mtimeMs);
  }
  return newest;
}

/** Refuses a missing build; warns when the workspace sources changed after it. */
function checkBuilt(charter: string | undefined): void {
  const built = join(charter ?? join(ROOT, 'packages', 'charter'), 'dist', 'index.d.ts');
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`bun run build\` first`);
  if (charter !== undefined) return;
  const sources = Math.max(
    ...['core', 'client', 'app'].map((name) => newestSource(join(ROOT, 'packages', name, 'src'))),
  );
  if (sources > statSync(built).mtimeMs) {
    console.warn('warning: sources changed after packages/charter/dist was built; run `bun run build`');
  }
}

export interface Options {
  sizes: number[];
  variants: Variant[];
  runs: number;
  singleThreaded: boolean;
  keep: boolean;
  bodies: boolean;
  groupSize: number;
  charter: string | undefined;
  pprofDir: string | undefined;
}

export function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    sizes: [],
    variants: ['app'],
    runs: 1,
    singleThreaded: false,
    keep: false,
    bodies: false,
    groupSize: DEFAULT_GROUP_SIZE,
    charter: undefined,
    pprofDir: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--variant') {
      options.variants = (argv[++i] ?? '').split(',') as Variant[];
      for (const v of options.variants) if (!VARIANTS.includes(v)) throw new Error(`unknown variant ${v}`);
    } else if (arg === '--runs') options.runs = Math.max(1, Number(argv[++i]));
    else if (arg === '--single-threaded') options.singleThreaded = true;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--bodies') options.bodies = true;
    else if (arg === '--group-size') {
      options.groupSize = Number(argv[++i]);
      if (!Number.isInteger(options.groupSize) || options.groupSize < 1)
        throw new Error('--group-size takes a positive whole number');
    } else if (arg === '--charter') options.charter = argv[++i];
    else if (arg === '--pprof-dir') options.pprofDir = argv[++i];
    else if (/^\d+$/.test(arg)) options.sizes.push(Number(arg));
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.sizes.length === 0) options.sizes = [50, 200, 1000];
  return options;
}

const fixed = (value: number, digits: number) => value.toFixed(digits);

function row(variant: string, n: number, f: Figures): string {
  return [
    variant.padEnd(8),
    String(n).padStart(6),
    fixed(f.checkSeconds, 2).padStart(8),
    fixed(f.totalSeconds, 2).padStart(8),
    fixed(f.wallSeconds, 2).padStart(7),
    fixed(f.cpuSeconds, 2).padStart(6),
    fixed(f.memoryMB, 0).padStart(10),
    fixed(f.peakRssMB, 0).padStart(12),
    fixed(f.instantiations, 0).padStart(15),
    fixed(f.types, 0).padStart(9),
  ].join(' ');
}

if (import.meta.main) {
  const options = parseArgs(process.argv.slice(2));
  checkBuilt(options.charter);
  const version = Bun.spawnSync([TSC, '--version'])
    .stdout.toString()
    .trim()
    .replace(/^Version /, '');
  console.log(
    `tsc ${version}, strict, skipLibCheck; charter from ${options.charter ?? 'packages/charter'}` +
      `${options.bodies ? ', with body schemas' : ''}; median of ${options.runs} run(s)` +
      (options.singleThreaded ? ', --singleThreaded' : ''),
  );
  console.log(
    'variant  routes  check s  total s  wall s  cpu s  memory MB  peak RSS MB  instantiations     types',
  );
  const charter = snapshotCharter(options.charter);
  // Kept projects link this copy, so it stays with them.
  if (!options.keep) process.on('exit', () => rmSync(join(charter, '..'), { recursive: true, force: true }));
  // For each size, every variant's project is written first and the runs go round the variants, so
  // drift in the machine's load falls on all of them alike; the medians print once the rounds are done.
  const results = new Map<Variant, Array<[number, Figures]>>(options.variants.map((v) => [v, []]));
  for (const n of options.sizes) {
    const dirs = options.variants.map((variant) =>
      writeProject(variant, n, { bodies: options.bodies, charter, groupSize: options.groupSize }),
    );
    try {
      const runs: Figures[][] = options.variants.map(() => []);
      for (let k = 0; k < options.runs; k++) {
        options.variants.forEach((_, v) => {
          runs[v]?.push(check(dirs[v] as string, options.singleThreaded, options.pprofDir));
        });
      }
      options.variants.forEach((variant, v) => {
        const figures = medianFigures(runs[v] as Figures[]);
        results.get(variant)?.push([n, figures]);
        console.log(row(variant, n, figures) + (options.keep ? `  ${dirs[v]}` : ''));
      });
    } finally {
      if (!options.keep) for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const [variant, figures] of results) {
    if (figures.length < 2) continue;
    const [n1, a] = figures[figures.length - 2] as [number, Figures];
    const [n2, b] = figures[figures.length - 1] as [number, Figures];
    const ratio = (key: keyof Figures) => `x${fixed(b[key] / a[key], 2)}`;
    console.log(
      `${variant}: ${n2} vs ${n1} routes (x${fixed(n2 / n1, 1)}): check ${ratio('checkSeconds')}, ` +
        `total ${ratio('totalSeconds')}, cpu ${ratio('cpuSeconds')}, memory ${ratio('memoryMB')}, ` +
        `peak RSS ${ratio('peakRssMB')}, instantiations ${ratio('instantiations')}, types ${ratio('types')}`,
    );
  }
}
