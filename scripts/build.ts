/**
 * Builds the published `charter` package into `packages/charter/dist/`, from scratch.
 *
 * - JS: one `Bun.build` over every subpath entry (`packages/charter/src/<name>.ts` is `charter/<name>`,
 *   `index.ts` is the root), code-split so all subpaths share one copy of the core, ESM for Node and Bun,
 *   workspace packages bundled in, only `node:*` builtins and `bun` left external. Built for a cheap
 *   start-up (`bench/startup.ts`): whitespace, syntax and identifiers minified (a third fewer bytes to
 *   parse; stack frames keep their place through the maps, not their function names), with linked source
 *   maps; and in Bun's `target: 'bun'` form, which is plain ESM that Node runs as well
 *   but starts with the `// @bun` pragma and is ASCII only, so Bun's runtime hands each file straight to
 *   JavaScriptCore instead of transpiling it again on every start (or reading it back from its
 *   transpiler cache, which a fresh container or CI machine does not have). That form writes Node builtins
 *   without their `node:` prefix; the build puts the prefix back (and shifts the source map to match), so
 *   the files import exactly what the sources import. Bun maps stack frames of these files through the
 *   linked maps, which embed the sources (1 MiB for the core chunk): it reads one the first time it
 *   needs a frame of its file, including when the first garbage collection materialises the stack of an
 *   `Error` created at import time, so module-level code should create none.
 * - For Bun's runtime, `dist/bun/`: the same code as CommonJS with JavaScriptCore bytecode, selected by the
 *   `bun` export condition, behind entry files with the ESM build's export names
 *   (scripts/build-bun-bytecode.ts); built after the ESM build, which it is checked against.
 * - Types: `tsc` (packages/charter/tsconfig.build.json) emits declarations for every workspace source into
 *   `dist/types/<package>/src/`, then every declaration is rewritten so a consumer with only `charter`
 *   installed can load it: `@charter/*` specifiers become relative paths into `dist/types/`, `.ts`
 *   specifiers become `.js`, and each entry's declaration moves to `dist/<name>.d.ts`.
 *
 * The module specifier scanner and the workspace discovery helpers are exported for the packaging tests;
 * the build itself only runs when this file is the main module (`bun run build`).
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { BYTECODE_PRAGMA, buildBunBytecode } from './build-bun-bytecode.ts';

export const ROOT = resolve(import.meta.dir, '..');
export const PACKAGES_DIR = join(ROOT, 'packages');
export const CHARTER_DIR = join(PACKAGES_DIR, 'charter');
export const CHARTER_SRC = join(CHARTER_DIR, 'src');
export const DIST = join(CHARTER_DIR, 'dist');
export const TYPES_DIR = join(DIST, 'types');
const TSCONFIG_BUILD = join(CHARTER_DIR, 'tsconfig.build.json');
const TSC_BIN = join(ROOT, 'node_modules', '.bin', 'tsc');

// ---------------------------------------------------------------------------------------------------------
// Module specifier scanner: a small lexer (comments, strings, template literals, regex literals) that
// reports the string literals used as module specifiers, so commented-out imports and strings that merely
// look like imports are never reported, and rewriting touches only real specifiers.

export interface ModuleSpecifier {
  /** The specifier text, without quotes. */
  value: string;
  /** Offsets of the text between the quotes. */
  start: number;
  end: number;
  /** 1-based line of the specifier. */
  line: number;
  /**
   * `static`: `import ... from 'x'`, `export ... from 'x'`, `import 'x'`; `dynamic`: `import('x')`,
   * `require('x')`, `import("x")` types; `module`: `declare module 'x'`; `reference`: `/// <reference path>`.
   */
  kind: 'static' | 'dynamic' | 'module' | 'reference';
}

export interface ScannedModule {
  specifiers: ModuleSpecifier[];
  /** `[start, end)` offsets of every comment. */
  comments: Array<[number, number]>;
}

const REGEX_AFTER_KEYWORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
const VALUE_END_PUNCTUATORS = new Set([')', ']', '}', '`', '"']);
const IDENT_START = /[A-Za-z_$\u0080-\uffff]/;
const IDENT_PART = /[\w$\u0080-\uffff]/;
const REFERENCE_PATH = /^\/\/\/\s*<reference\s+path\s*=\s*(['"])([^'"]*)\1/;

export function scanModule(code: string): ScannedModule {
  const specifiers: ModuleSpecifier[] = [];
  const comments: Array<[number, number]> = [];
  const recent: string[] = [];
  const templateResume: number[] = [];
  const n = code.length;
  let braceDepth = 0;
  let i = 0;

  const push = (token: string): void => {
    recent.push(token);
    if (recent.length > 3) recent.shift();
  };
  const prev = (k: number): string | undefined => recent[recent.length - k];
  const lineAt = (offset: number): number => {
    let line = 1;
    for (let j = 0; j < offset; j++) if (code.charCodeAt(j) === 10) line++;
    return line;
  };
  const record = (start: number, end: number, kind: ModuleSpecifier['kind']): void => {
    specifiers.push({ value: code.slice(start, end), start, end, line: lineAt(start), kind });
  };
  /** Reads template text from `i` (just after a backtick or a closing `}`) to its end or to a `${`. */
  const readTemplate = (): void => {
    while (i < n) {
      const c = code[i];
      if (c === '\\') {
        i += 2;
      } else if (c === '`') {
        i++;
        push('`');
        return;
      } else if (c === '$' && code[i + 1] === '{') {
        i += 2;
        templateResume.push(braceDepth);
        braceDepth++;
        push('${');
        return;
      } else {
        i++;
      }
    }
  };

  if (code.startsWith('#!')) {
    while (i < n && code[i] !== '\n') i++;
  }
  while (i < n) {
    const c = code[i] as string;
    const next = code[i + 1];
    if (c === '\n' || c === '\r' || c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\ufeff') {
      i++;
    } else if (c === '/' && next === '/') {
      const start = i;
      while (i < n && code[i] !== '\n') i++;
      comments.push([start, i]);
      const reference = REFERENCE_PATH.exec(code.slice(start, i));
      if (reference) {
        const valueStart = start + (reference[0].length - 1 - (reference[2] as string).length);
        record(valueStart, valueStart + (reference[2] as string).length, 'reference');
      }
    } else if (c === '/' && next === '*') {
      const start = i;
      const close = code.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
      comments.push([start, i]);
    } else if (c === "'" || c === '"') {
      const start = i + 1;
      i++;
      while (i < n && code[i] !== c && code[i] !== '\n') i += code[i] === '\\' ? 2 : 1;
      const end = Math.min(i, n);
      i++;
      const p1 = prev(1);
      const p2 = prev(2);
      const p3 = prev(3);
      if ((p1 === 'from' || p1 === 'import') && p2 !== '.') record(start, end, 'static');
      else if (p1 === '(' && (p2 === 'import' || p2 === 'require') && p3 !== '.')
        record(start, end, 'dynamic');
      else if (p1 === 'module' && p2 === 'declare') record(start, end, 'module');
      push('"');
    } else if (c === '`') {
      i++;
      readTemplate();
    } else if (c === '{') {
      braceDepth++;
      i++;
      push('{');
    } else if (c === '}') {
      braceDepth--;
      i++;
      if (templateResume.length > 0 && templateResume[templateResume.length - 1] === braceDepth) {
        templateResume.pop();
        readTemplate();
      } else {
        push('}');
      }
    } else if (c === '/') {
      const p1 = prev(1);
      const isRegex =
        p1 === undefined ||
        REGEX_AFTER_KEYWORD.has(p1) ||
        (!IDENT_PART.test(p1.charAt(0)) && !VALUE_END_PUNCTUATORS.has(p1));
      i++;
      if (isRegex) {
        let inClass = false;
        while (i < n && code[i] !== '\n') {
          const r = code[i];
          if (r === '\\') {
            i += 2;
            continue;
          }
          i++;
          if (r === '[') inClass = true;
          else if (r === ']') inClass = false;
          else if (r === '/' && !inClass) break;
        }
        while (i < n && IDENT_PART.test(code[i] as string)) i++;
        push('"');
      } else {
        push('/');
      }
    } else if (IDENT_START.test(c)) {
      const start = i;
      while (i < n && IDENT_PART.test(code[i] as string)) i++;
      push(code.slice(start, i));
    } else if (c >= '0' && c <= '9') {
      while (i < n && /[\w.]/.test(code[i] as string)) i++;
      push('0');
    } else {
      i++;
      push(c);
    }
  }
  return { specifiers, comments };
}

export function scanSpecifiers(code: string): ModuleSpecifier[] {
  return scanModule(code).specifiers;
}

/** The code with every comment replaced by spaces (offsets and line numbers are kept). */
export function stripComments(code: string): string {
  let out = '';
  let last = 0;
  for (const [start, end] of scanModule(code).comments) {
    out += code.slice(last, start) + code.slice(start, end).replace(/[^\n]/g, ' ');
    last = end;
  }
  return out + code.slice(last);
}

/** True for Node builtins (`node:fs`, `fs`, `fs/promises`), false for Bun's own (`bun`, `bun:sqlite`). */
export function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  return !specifier.startsWith('bun') && builtinModules.includes(specifier);
}

export function isBunBuiltin(specifier: string): boolean {
  return specifier === 'bun' || specifier.startsWith('bun:');
}

export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

// ---------------------------------------------------------------------------------------------------------
// Workspace discovery.

export interface Manifest {
  name: string;
  private?: boolean;
  exports?: unknown;
  main?: string;
  types?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  files?: string[];
}

export interface WorkspacePackage {
  name: string;
  /** Directory name under `packages/`. */
  dirName: string;
  dir: string;
  manifest: Manifest;
}

export function workspacePackages(): WorkspacePackage[] {
  return readdirSync(PACKAGES_DIR)
    .filter((dirName) => existsSync(join(PACKAGES_DIR, dirName, 'package.json')))
    .sort()
    .map((dirName) => {
      const dir = join(PACKAGES_DIR, dirName);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      return { name: manifest.name, dirName, dir, manifest };
    });
}

export function isTestFile(path: string): boolean {
  return /\.(test|spec)\.[cm]?tsx?$/.test(path) || /(^|[\\/])__(tests|fixtures)__([\\/]|$)/.test(path);
}

export interface SubpathEntry {
  /** File stem: `index`, `bun`, `node`... */
  name: string;
  /** Exports map key: `.`, `./bun`, `./node`... */
  subpath: string;
  /** Absolute path of `packages/charter/src/<name>.ts`. */
  file: string;
}

export function subpathEntries(): SubpathEntry[] {
  return readdirSync(CHARTER_SRC)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !isTestFile(f))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.ts'.length);
      return { name, subpath: name === 'index' ? '.' : `./${name}`, file: join(CHARTER_SRC, f) };
    });
}

/** Every file under `dir` (recursively), skipping `node_modules`. */
export function walkFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const posix = (path: string): string => path.split(sep).join('/');

// ---------------------------------------------------------------------------------------------------------
// Build.

class BuildError extends Error {}

/** The first line of a file Bun's runtime runs as it is, without transpiling it (`target: 'bun'` output). */
export const BUN_PRAGMA = '// @bun\n';

async function buildJs(entries: SubpathEntry[]): Promise<void> {
  const result = await Bun.build({
    entrypoints: entries.map((e) => e.file),
    root: CHARTER_SRC,
    outdir: DIST,
    // Plain ESM for Node too (tests/packaging imports every subpath under Node); see the header comment.
    target: 'bun',
    format: 'esm',
    splitting: true,
    sourcemap: 'linked',
    // Identifiers renamed too: a third fewer bytes to read and parse on every start. Bun 1.4.5 accepts
    // `keepNames` but still renames, so the names a user sees are kept in the sources instead: error
    // classes state theirs (`keepClassNames`, since `error.name` comes from the class), as does `App`.
    minify: { whitespace: true, syntax: true, identifiers: true },
    packages: 'bundle',
    external: ['bun'],
    naming: { entry: '[dir]/[name].[ext]', chunk: 'chunk-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
    throw: false,
  });
  if (!result.success) {
    const logs = result.logs.map((log) => `  ${String(log)}`).join('\n');
    throw new BuildError(`Bun.build failed:\n${logs}`);
  }
  const problems: string[] = [];
  for (const output of result.outputs) {
    if (!output.path.endsWith('.js')) continue;
    const code = restoreNodePrefixes(output.path, await output.text());
    problems.push(...shippedFileProblems(output.path, code, BUN_PRAGMA));
  }
  if (problems.length > 0) {
    throw new BuildError(
      `the bundle is not what charter ships (only node:* builtins and bun may stay external, every file is // @bun and ASCII):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
}

/**
 * What must hold of every JavaScript file charter ships, in either build: its pragma first; ASCII only
 * (Bun's runtime reads a pragma'd file as Latin-1: one byte outside ASCII would change a string); and,
 * since charter has no runtime dependencies, nothing external but builtins, every relative import naming
 * a file that was built.
 */
function shippedFileProblems(path: string, code: string, pragma: string): string[] {
  const where = posix(relative(ROOT, path));
  const problems: string[] = [];
  if (!code.startsWith(pragma)) problems.push(`${where} does not start with the ${pragma.trim()} pragma`);
  const nonAscii = /[^\x00-\x7f]/.exec(code);
  if (nonAscii) problems.push(`${where}: a character outside ASCII at offset ${nonAscii.index}`);
  for (const s of scanSpecifiers(code)) {
    if (isRelative(s.value)) {
      if (!existsSync(resolve(dirname(path), s.value))) {
        problems.push(`${where}:${s.line} imports '${s.value}', which was not built`);
      }
    } else if (!isNodeBuiltin(s.value) && !isBunBuiltin(s.value)) {
      problems.push(`${where}:${s.line} imports '${s.value}'`);
    }
  }
  return problems;
}

/** `dist/bun/`: the CommonJS build with bytecode that Bun loads through the `bun` condition (build-bun-bytecode.ts). */
async function buildBunJs(entries: SubpathEntry[]): Promise<void> {
  const packages = workspacePackages().filter((p) => p.name.startsWith('@charter/'));
  const problems = await buildBunBytecode(DIST, entries, packages, ROOT, (path, code) =>
    shippedFileProblems(path, code, BYTECODE_PRAGMA),
  );
  if (problems.length > 0) {
    throw new BuildError(
      `the bun build is not what charter ships:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  }
}

/**
 * `target: 'bun'` writes `import ... from "crypto"` for `node:crypto`; puts the `node:` prefix back in
 * every static and dynamic import of a Node builtin, as the sources write it, rewrites the file and
 * shifts the generated columns of its source map (`<file>.map`) to match.
 */
export function restoreNodePrefixes(path: string, code: string): string {
  const bare = scanSpecifiers(code).filter(
    (s) =>
      (s.kind === 'static' || s.kind === 'dynamic') && isNodeBuiltin(s.value) && !s.value.startsWith('node:'),
  );
  if (bare.length === 0) return code;
  let out = '';
  let last = 0;
  const inserts = new Map<number, number[]>();
  for (const s of bare) {
    out += `${code.slice(last, s.start)}node:`;
    last = s.start;
    const lineStart = code.lastIndexOf('\n', s.start - 1) + 1;
    inserts.set(s.line - 1, [...(inserts.get(s.line - 1) ?? []), s.start - lineStart]);
  }
  out += code.slice(last);
  writeFileSync(path, out);
  const mapPath = `${path}.map`;
  if (existsSync(mapPath)) {
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { mappings: string };
    map.mappings = shiftMappings(map.mappings, inserts, 'node:'.length);
    writeFileSync(mapPath, JSON.stringify(map));
  }
  return out;
}

const VLQ_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = VLQ_DIGITS.indexOf(char);
    if (digit < 0) throw new BuildError(`invalid source map mappings: '${text}'`);
    value += (digit & 31) * 2 ** shift;
    shift += 5;
    if ((digit & 32) === 0) {
      values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeVlq(values: number[]): string {
  let out = '';
  for (const v of values) {
    let rest = v < 0 ? -v * 2 + 1 : v * 2;
    do {
      const digit = rest % 32;
      rest = Math.floor(rest / 32);
      out += VLQ_DIGITS[rest > 0 ? digit + 32 : digit];
    } while (rest > 0);
  }
  return out;
}

/**
 * Source map v3 `mappings` after inserting `width` characters at each of the given (0-based) generated
 * columns of the given (0-based) generated lines: every segment at or after an insertion moves right.
 * Only the generated column is per line; the other fields are deltas across the whole string, untouched.
 */
export function shiftMappings(
  mappings: string,
  inserts: ReadonlyMap<number, number[]>,
  width: number,
): string {
  const lines = mappings.split(';');
  for (const [line, columns] of inserts) {
    const text = lines[line];
    if (text === undefined || text === '') continue;
    let column = 0;
    let shifted = 0;
    lines[line] = text
      .split(',')
      .map((segment) => {
        const fields = decodeVlq(segment);
        column += fields[0] as number;
        const moved = column + width * columns.filter((at) => at <= column).length;
        fields[0] = moved - shifted;
        shifted = moved;
        return encodeVlq(fields);
      })
      .join(',');
  }
  return lines.join(';');
}

/** The line a bin file starts with: Node runs it; Bun's `bun <file>` and `bunx` run it as well. */
export const BIN_SHEBANG = '#!/usr/bin/env node\n';

/**
 * Each file the manifest's `bin` names (`charter` -> `./dist/cli.js`) gets the shebang line above the
 * `// @bun` pragma (Bun still reads the pragma on the line after a shebang), its source map one more
 * unmapped line at the top, and the executable bits.
 */
function addBinShebangs(): void {
  const manifest = JSON.parse(readFileSync(join(CHARTER_DIR, 'package.json'), 'utf8')) as Manifest;
  const bin = (manifest as { bin?: Record<string, string> }).bin ?? {};
  for (const [name, target] of Object.entries(bin)) {
    const file = resolve(CHARTER_DIR, target);
    if (!existsSync(file)) throw new BuildError(`bin ${name} -> ${target}: the build made no such file`);
    const code = readFileSync(file, 'utf8');
    if (code.startsWith('#!')) continue;
    writeFileSync(file, BIN_SHEBANG + code);
    chmodSync(file, 0o755);
    const mapPath = `${file}.map`;
    if (existsSync(mapPath)) {
      const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { mappings: string };
      map.mappings = `;${map.mappings}`;
      writeFileSync(mapPath, JSON.stringify(map));
    }
  }
}

async function runTsc(): Promise<void> {
  if (!existsSync(TSC_BIN)) throw new BuildError(`tsc not found at ${TSC_BIN}; run \`bun install\``);
  const proc = Bun.spawn([TSC_BIN, '-p', TSCONFIG_BUILD, '--emitDeclarationOnly', '--pretty', 'false'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) {
    const output = `${stdout}${stderr}`.trim();
    throw new BuildError(
      `tsc (declarations, ${posix(relative(ROOT, TSCONFIG_BUILD))}) exited with ${code}:\n${output}`,
    );
  }
}

/** Source file (`packages/<pkg>/src/x.ts`) → where its declaration ends up in dist. */
function declarationPathFor(source: string, entries: Map<string, SubpathEntry>): string {
  const entry = entries.get(source);
  if (entry) return join(DIST, `${entry.name}.d.ts`);
  const rel = relative(PACKAGES_DIR, source);
  if (rel.endsWith('.d.ts') || rel.endsWith('.d.mts')) return join(TYPES_DIR, rel);
  return join(TYPES_DIR, rel.replace(/\.(m?)tsx?$/, '.d.$1ts'));
}

function firstExisting(candidates: string[]): string | undefined {
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Resolves a relative specifier written in `fromSource` to a source file, as TypeScript would. */
function resolveRelativeSource(fromSource: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromSource), specifier);
  const js = /\.(m?)js$/.exec(base);
  if (js) {
    const stem = base.slice(0, -js[0].length);
    return firstExisting([`${stem}.${js[1]}ts`, `${stem}.tsx`, `${stem}.d.${js[1]}ts`]);
  }
  if (/\.(d\.)?m?tsx?$/.test(base)) return firstExisting([base]);
  return firstExisting([
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.d.ts`,
    join(base, 'index.ts'),
    join(base, 'index.d.ts'),
  ]);
}

/** Picks the types target of an exports map value (string or conditions object). */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const conditions = value as Record<string, unknown>;
    for (const key of ['types', 'import', 'bun', 'node', 'default']) {
      const target = exportTarget(conditions[key]);
      if (target) return target;
    }
  }
  return undefined;
}

/** Resolves `@charter/<pkg>[/sub]` through the workspace package's exports map to a source file. */
function resolveWorkspaceSource(
  specifier: string,
  byName: Map<string, WorkspacePackage>,
): string | undefined {
  const [scope, name, ...rest] = specifier.split('/');
  const pkg = byName.get(`${scope}/${name}`);
  if (!pkg) return undefined;
  const key = rest.length > 0 ? `./${rest.join('/')}` : '.';
  const { exports } = pkg.manifest;
  let target: string | undefined;
  if (exports === undefined) {
    target = key === '.' ? (pkg.manifest.types ?? pkg.manifest.main ?? './src/index.ts') : key;
  } else if (typeof exports === 'string' || (exports && typeof exports === 'object' && !('.' in exports))) {
    target = key === '.' ? exportTarget(exports) : undefined;
  } else {
    target = exportTarget((exports as Record<string, unknown>)[key]);
  }
  if (!target) return undefined;
  return resolveRelativeSource(
    join(pkg.dir, 'package.json'),
    target.startsWith('.') ? target : `./${target}`,
  );
}

function relativeSpecifier(fromFile: string, toFile: string): string {
  let rel = posix(relative(dirname(fromFile), toFile)).replace(/\.d\.(m?)ts$/, '.$1js');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

interface DeclarationStats {
  files: number;
  tsSpecifiers: number;
  workspaceSpecifiers: number;
}

/** Makes the emitted declaration tree self-contained and moves each entry's declaration to `dist/<name>.d.ts`. */
function rewriteDeclarations(entryList: SubpathEntry[]): DeclarationStats {
  const packages = workspacePackages();
  const byName = new Map(packages.map((p) => [p.name, p]));
  const entries = new Map(entryList.map((e) => [e.file, e]));

  // Hand-written .d.ts files are part of the program but never emitted: ship them too.
  for (const pkg of packages) {
    for (const file of walkFiles(join(pkg.dir, 'src'))) {
      if (!/\.d\.m?ts$/.test(file) || isTestFile(file)) continue;
      const out = join(TYPES_DIR, relative(PACKAGES_DIR, file));
      mkdirSync(dirname(out), { recursive: true });
      copyFileSync(file, out);
    }
  }

  // emitted declaration → [source it came from, final location]
  const plan = new Map<string, { source: string; out: string }>();
  for (const emitted of walkFiles(TYPES_DIR)) {
    if (!/\.d\.m?ts$/.test(emitted)) continue;
    const rel = relative(TYPES_DIR, emitted);
    const stem = join(PACKAGES_DIR, rel.replace(/\.d\.(m?)ts$/, ''));
    const isMts = emitted.endsWith('.d.mts');
    const source = firstExisting(
      isMts ? [`${stem}.mts`, `${stem}.d.mts`] : [`${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`],
    );
    if (!source)
      throw new BuildError(`cannot map declaration ${posix(relative(ROOT, emitted))} back to a source`);
    plan.set(emitted, { source, out: declarationPathFor(source, entries) });
  }
  for (const entry of entryList) {
    const out = join(DIST, `${entry.name}.d.ts`);
    if (![...plan.values()].some((p) => p.out === out)) {
      throw new BuildError(`tsc emitted no declaration for ${posix(relative(ROOT, entry.file))}`);
    }
  }
  const declared = new Set([...plan.values()].map((p) => p.source));

  const stats: DeclarationStats = { files: 0, tsSpecifiers: 0, workspaceSpecifiers: 0 };
  const problems: string[] = [];
  for (const [emitted, { source, out }] of plan) {
    const code = readFileSync(emitted, 'utf8');
    let rewritten = '';
    let last = 0;
    for (const s of scanSpecifiers(code)) {
      const where = `${posix(relative(ROOT, source))} (declaration line ${s.line})`;
      let target: string | undefined;
      if (isRelative(s.value)) {
        target = resolveRelativeSource(source, s.value);
        if (/\.m?tsx?$/.test(s.value)) stats.tsSpecifiers++;
      } else if (s.value.startsWith('@charter/')) {
        target = resolveWorkspaceSource(s.value, byName);
        stats.workspaceSpecifiers++;
      } else if (isNodeBuiltin(s.value) || isBunBuiltin(s.value)) {
        continue;
      } else {
        problems.push(
          `  ${where}: '${s.value}' is not shipped with charter (a consumer who installs only charter cannot resolve it)`,
        );
        continue;
      }
      if (!target || !declared.has(target)) {
        problems.push(`  ${where}: cannot map '${s.value}' to an emitted declaration`);
        continue;
      }
      rewritten += code.slice(last, s.start) + relativeSpecifier(out, declarationPathFor(target, entries));
      last = s.end;
    }
    rewritten += code.slice(last);
    if (out !== emitted) rmSync(emitted);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, rewritten);
    stats.files++;
  }
  if (problems.length > 0) throw new BuildError(`declaration rewrite failed:\n${problems.join('\n')}`);
  removeEmptyDirs(TYPES_DIR);

  // Post-condition: nothing a consumer cannot resolve is left.
  for (const file of walkFiles(DIST)) {
    if (!/\.d\.m?ts$/.test(file)) continue;
    for (const s of scanSpecifiers(readFileSync(file, 'utf8'))) {
      const bad =
        s.value.startsWith('@charter/') ||
        /\.m?tsx?$/.test(s.value) ||
        (isRelative(s.value) && !existsSync(resolve(dirname(file), s.value.replace(/\.(m?)js$/, '.d.$1ts'))));
      if (bad) problems.push(`  ${posix(relative(ROOT, file))}:${s.line}: '${s.value}'`);
    }
  }
  if (problems.length > 0) {
    throw new BuildError(`declarations still reference unresolvable modules:\n${problems.join('\n')}`);
  }
  return stats;
}

function removeEmptyDirs(dir: string): boolean {
  if (!existsSync(dir)) return true;
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && removeEmptyDirs(join(dir, entry.name))) continue;
    empty = false;
  }
  if (empty) rmSync(dir, { recursive: true });
  return empty;
}

async function main(): Promise<void> {
  const started = performance.now();
  const entries = subpathEntries();
  if (entries.length === 0) throw new BuildError(`no entries found in ${posix(relative(ROOT, CHARTER_SRC))}`);
  rmSync(DIST, { recursive: true, force: true });
  // The bun build checks its entries against the ESM build's, so it comes second.
  await Promise.all([buildJs(entries).then(() => buildBunJs(entries)), runTsc()]);
  addBinShebangs();
  const stats = rewriteDeclarations(entries);
  const files = walkFiles(DIST);
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `charter: built ${entries.length} entries (${entries.map((e) => e.subpath).join(' ')}) → ${files.length} files, ` +
      `${(bytes / 1024).toFixed(1)} KiB in ${seconds}s (${stats.files} declarations, ` +
      `${stats.workspaceSpecifiers} @charter/* and ${stats.tsSpecifiers} .ts specifiers rewritten)`,
  );
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    const message =
      error instanceof BuildError ? error.message : error instanceof Error ? error.stack : String(error);
    console.error(`\ncharter build FAILED: ${message}\n`);
    process.exit(1);
  }
}
