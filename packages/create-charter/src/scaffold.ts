/**
 * What create-charter does, without the command line: checks the target and the project name, then
 * copies a template with the name and the charter version filled in. Every refusal is a
 * `ScaffoldError` whose message says what to do instead.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Every template the scaffolder knows, with the adapter it needs. */
export const TEMPLATE_ADAPTERS = {
  bun: 'charter/bun',
  node: 'charter/node',
  deno: 'charter/deno',
  cloudflare: 'charter/cloudflare',
  vercel: 'charter/vercel',
  lambda: 'charter/lambda',
} as const;

export type TemplateName = keyof typeof TEMPLATE_ADAPTERS;

/**
 * What templates share, kept once: folders under the templates directory copied before a template's
 * own files (which win). `_shared` holds the app every template serves; `_bun-test` the app's tests
 * for the templates whose tests run with `bun test`.
 */
const TEMPLATE_LAYERS: Record<TemplateName, readonly string[]> = {
  bun: ['_shared', '_bun-test'],
  node: ['_shared'],
  deno: ['_shared'],
  cloudflare: ['_shared', '_bun-test'],
  vercel: ['_shared', '_bun-test'],
  lambda: ['_shared', '_bun-test'],
};

export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

/** The templates this copy of create-charter ships (a folder each under `templatesDir`). */
export function availableTemplates(templatesDir: string): TemplateName[] {
  return (Object.keys(TEMPLATE_ADAPTERS) as TemplateName[]).filter((name) =>
    existsSync(join(templatesDir, name)),
  );
}

/** Names npm refuses or that cannot be a package folder (npm's package name rules). */
const RESERVED_NAMES = new Set(['node_modules', 'favicon.ico']);
const PACKAGE_NAME = /^[a-z0-9~-][a-z0-9._~-]*$/;

/** Why `name` is not a valid npm package name, or undefined when it is one. */
export function invalidPackageName(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > 214) return 'it is longer than 214 characters';
  if (name !== name.toLowerCase()) return 'it has capital letters';
  if (name.startsWith('.') || name.startsWith('_')) return 'it starts with . or _';
  if (name.trim() !== name) return 'it starts or ends with a space';
  if (RESERVED_NAMES.has(name)) return `${name} is reserved`;
  if (!PACKAGE_NAME.test(name)) return 'only lowercase letters, digits, -, ., _ and ~ are allowed';
  return undefined;
}

export interface ScaffoldOptions {
  /** The folder to create, relative to `cwd`; its last segment is the project's name. */
  target: string;
  template: TemplateName;
  /** The version range of charter written in package.json, e.g. `^0.1.0`. */
  charterVersion: string;
  templatesDir: string;
  cwd: string;
}

/** Resolves and checks the target folder; returns its absolute path and the project name. */
export function checkTarget(target: string, cwd: string): { dir: string; name: string } {
  if (target.trim() === '') throw new ScaffoldError('Name the folder to create, e.g. create-charter my-app');
  if (isAbsolute(target) || target.includes('\0')) {
    throw new ScaffoldError(
      `"${target}" is not a folder name inside the current directory: give a relative one, e.g. my-app`,
    );
  }
  const dir = resolve(cwd, target);
  const inside = relative(cwd, dir);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new ScaffoldError(
      `"${target}" is outside the current directory: create-charter only writes below it`,
    );
  }
  const name = basename(dir);
  const problem = invalidPackageName(name);
  if (problem !== undefined) {
    throw new ScaffoldError(
      `"${name}" cannot be a package name: ${problem}. Try a lowercase name such as my-app`,
    );
  }
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new ScaffoldError(`${target} exists and is not a folder`);
    if (readdirSync(dir).length > 0) {
      throw new ScaffoldError(`${target} exists and is not empty: pick another name, or empty it first`);
    }
  }
  return { dir, name };
}

/** Files whose text gets `{{name}}` and `{{charterVersion}}` filled in. */
const TEXT_FILES = /\.(json|md|ts|toml|yml|yaml)$|^Dockerfile$/;
/** npm drops `.gitignore` from packages, so templates carry it as `gitignore`. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore', dockerignore: '.dockerignore' };

/** Copies the template into the target; returns the folder written and the files, sorted. */
export function scaffold(options: ScaffoldOptions): { dir: string; name: string; files: string[] } {
  const available = availableTemplates(options.templatesDir);
  if (!available.includes(options.template)) {
    throw new ScaffoldError(
      `There is no "${options.template}" template here; the templates are: ${available.join(', ')}`,
    );
  }
  const { dir, name } = checkTarget(options.target, options.cwd);
  for (const layer of [...TEMPLATE_LAYERS[options.template], options.template]) {
    cpSync(join(options.templatesDir, layer), dir, { recursive: true });
  }
  const files: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      let path = join(folder, entry.name);
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      const renamed = RENAMED[entry.name];
      if (renamed !== undefined) {
        renameSync(path, join(folder, renamed));
        path = join(folder, renamed);
      }
      if (TEXT_FILES.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        writeFileSync(
          path,
          text.replaceAll('{{name}}', name).replaceAll('{{charterVersion}}', options.charterVersion),
        );
      }
      files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  visit(dir);
  return { dir, name, files: files.sort() };
}
