/**
 * Type-checks documentation modules in one `tsc` run, as a consumer of the BUILT `charter` package would
 * compile them, and maps each diagnostic back to its markdown line.
 *
 * The check project lives in a fresh directory under the OS temp dir: one directory per page holding its
 * modules, a `tsconfig.json`, and a `node_modules` of symbolic links: `charter` to packages/charter (its
 * exports map points into `dist/`, so `bun run build` must have run), and the third-party packages the
 * samples use to the repository's own installs. The compiler options are strict: those `bun init` writes
 * (the setup the getting-started page leads a reader to), with the DOM library added.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { walkFiles } from '../../scripts/build.ts';
import {
  assembleModules,
  type CheckModule,
  type ContentProblem,
  extractCodeBlocks,
  locate,
  pageName,
  type SourceLocation,
} from './code-blocks.ts';

/** The repository root. */
export const ROOT = resolve(import.meta.dir, '..', '..');
/** The published package, linked as `charter` into the check project. */
export const CHARTER_DIR = join(ROOT, 'packages', 'charter');
const ROOT_NODE_MODULES = join(ROOT, 'node_modules');
const TSC_BIN = join(ROOT_NODE_MODULES, '.bin', 'tsc');
/** The documentation pages. */
export const CONTENT_DIR = join(ROOT, 'content');

/** Packages the samples may import, linked from the repository's node_modules. */
export const LINKED_PACKAGES = [
  'arktype',
  'zod',
  'valibot',
  '@sinclair/typebox',
  'better-auth',
  'jose',
  'redis',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@types/bun',
] as const;

/** The compiler options of the check project. */
export const COMPILER_OPTIONS = {
  // `bun init`'s tsconfig (what a reader following "bun add charter" compiles with), plus the DOM library
  // the packaging fixtures assume: the published declarations name WebCrypto's `JsonWebKey`.
  lib: ['ESNext', 'DOM', 'DOM.Iterable'],
  target: 'ESNext',
  module: 'Preserve',
  moduleDetection: 'force',
  moduleResolution: 'bundler',
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  noFallthroughCasesInSwitch: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  types: ['bun'],
} as const;

/** Every `.md` file under `dir`, sorted, as absolute paths. */
export function markdownFiles(dir: string): string[] {
  return walkFiles(dir).filter((path) => path.endsWith('.md'));
}

/** A markdown page's modules, from its text; `file` is the page's path relative to the repository. */
export function pageModules(
  markdown: string,
  file: string,
  contentRoot = 'content',
): { blockCount: number; modules: CheckModule[]; problems: ContentProblem[] } {
  const extracted = extractCodeBlocks(markdown, file);
  const assembled = assembleModules(extracted.blocks, pageName(file, contentRoot));
  return {
    blockCount: extracted.blocks.length,
    modules: assembled.modules,
    problems: [...extracted.problems, ...assembled.problems],
  };
}

/** The modules of every page under `content/`. */
export function contentModules(contentDir = CONTENT_DIR): {
  pages: string[];
  blockCount: number;
  modules: CheckModule[];
  problems: ContentProblem[];
} {
  const pages = markdownFiles(contentDir).map((path) => relative(ROOT, path).split(sep).join('/'));
  const contentRoot = relative(ROOT, contentDir).split(sep).join('/');
  let blockCount = 0;
  const modules: CheckModule[] = [];
  const problems: ContentProblem[] = [];
  for (const page of pages) {
    const result = pageModules(readFileSync(join(ROOT, page), 'utf8'), page, contentRoot);
    blockCount += result.blockCount;
    modules.push(...result.modules);
    problems.push(...result.problems);
  }
  return { pages, blockCount, modules, problems };
}

/** A `tsc` diagnostic as printed with `--pretty false`. */
export interface RawDiagnostic {
  /** Path relative to the project directory, `/`-separated; undefined for a diagnostic without a file. */
  path?: string;
  line?: number;
  column?: number;
  code: string;
  /** The message, continuation lines joined with a space. */
  message: string;
}

/** A diagnostic placed in the markdown. */
export interface ContentDiagnostic {
  /** Undefined when the diagnostic is not in any documentation module (a config or library error). */
  location?: SourceLocation;
  code: string;
  message: string;
  /** The diagnostic as tsc printed it, for context. */
  raw: RawDiagnostic;
}

function parseHeader(line: string): RawDiagnostic | undefined {
  // `path(line,col): error TS1234: message` or `error TS1234: message`.
  const marker = line.indexOf(': error TS');
  const bare = line.startsWith('error TS');
  if (marker === -1 && !bare) return undefined;
  const codeStart = bare ? 'error '.length : marker + ': error '.length;
  const codeEnd = line.indexOf(':', codeStart);
  if (codeEnd === -1) return undefined;
  const code = line.slice(codeStart, codeEnd);
  const message = line.slice(codeEnd + 1).trim();
  if (bare) return { code, message };
  const head = line.slice(0, marker);
  const open = head.lastIndexOf('(');
  if (open === -1 || !head.endsWith(')')) return { path: head, code, message };
  const [lineText, columnText] = head.slice(open + 1, -1).split(',');
  return {
    path: head.slice(0, open).split('\\').join('/'),
    line: Number(lineText),
    column: Number(columnText),
    code,
    message,
  };
}

/** Parses `tsc --pretty false` output; indented lines continue the previous diagnostic's message. */
export function parseTscOutput(output: string): RawDiagnostic[] {
  const diagnostics: RawDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const header = parseHeader(line);
    if (header !== undefined) diagnostics.push(header);
    else if (line.startsWith(' ') && diagnostics.length > 0) {
      const last = diagnostics.at(-1) as RawDiagnostic;
      last.message = `${last.message} ${line.trim()}`;
    } else diagnostics.push({ code: 'output', message: line.trim() });
  }
  return diagnostics;
}

/** Places raw diagnostics in the markdown, through the modules they were reported in. */
export function mapDiagnostics(
  raw: readonly RawDiagnostic[],
  modules: readonly CheckModule[],
): ContentDiagnostic[] {
  const byPath = new Map(modules.map((module) => [module.path, module]));
  return raw.map((diagnostic) => {
    const module = diagnostic.path === undefined ? undefined : byPath.get(diagnostic.path);
    if (module === undefined || diagnostic.line === undefined) {
      return { code: diagnostic.code, message: diagnostic.message, raw: diagnostic };
    }
    return {
      location: locate(module, diagnostic.line, diagnostic.column),
      code: diagnostic.code,
      message: diagnostic.message,
      raw: diagnostic,
    };
  });
}

/** `content/docs/jwt.md:123: TS2345 message`. */
export function formatDiagnostic(diagnostic: ContentDiagnostic): string {
  const where = diagnostic.location
    ? `${diagnostic.location.file}:${diagnostic.location.line}`
    : `${diagnostic.raw.path ?? '(project)'}${diagnostic.raw.line === undefined ? '' : `:${diagnostic.raw.line}`}`;
  return `${where}: ${diagnostic.code} ${diagnostic.message}`;
}

function link(target: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, 'dir');
}

/** Writes the check project into a new temp directory and returns its path. */
export function writeCheckProject(modules: readonly CheckModule[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'charter-docs-'));
  link(CHARTER_DIR, join(dir, 'node_modules', 'charter'));
  for (const name of LINKED_PACKAGES) {
    const installed = join(ROOT_NODE_MODULES, name);
    if (!existsSync(installed)) throw new Error(`${name} is not installed in ${ROOT_NODE_MODULES}`);
    // Link the real directory, so its own dependencies resolve beside it (Bun's isolated installs).
    link(realpathSync(installed), join(dir, 'node_modules', name));
  }
  for (const module of modules) {
    const path = join(dir, ...module.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, module.text);
  }
  const tsconfig = { compilerOptions: COMPILER_OPTIONS, files: modules.map((module) => module.path) };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return dir;
}

/** Type-checks the modules in one `tsc` run and returns every diagnostic, placed in the markdown. */
export function typecheckModules(modules: readonly CheckModule[]): ContentDiagnostic[] {
  if (!existsSync(join(CHARTER_DIR, 'dist', 'index.d.ts'))) {
    throw new Error('packages/charter/dist is missing: run `bun run build` before the content tests');
  }
  const dir = writeCheckProject(modules);
  try {
    const result = Bun.spawnSync([TSC_BIN, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
      cwd: dir,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const output = `${result.stdout.toString()}${result.stderr.toString()}`;
    const raw = parseTscOutput(output);
    if (result.exitCode !== 0 && raw.length === 0) {
      throw new Error(`tsc exited with ${result.exitCode} and no diagnostics:\n${output}`);
    }
    return mapDiagnostics(raw, modules);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
