/**
 * Entry files: the guards a path must pass before `charter` imports or runs it, the default entries,
 * and how an App is found among the entry's exports.
 *
 * Importing a module runs its code, so the entry must be a file of the project the command runs in: a
 * path that climbs out of the working directory (`..`, an absolute path elsewhere, a symbolic link
 * pointing out), a file inside `node_modules` (someone else's code), or a URL (code from elsewhere) is
 * refused with a message saying why.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { shown, UsageError } from './args.ts';

/** Tried in order when no entry is given. */
export const DEFAULT_ENTRIES = ['src/app.ts', 'app.ts'] as const;
/** Tried in order by `charter dev` when no entry is given: the file that starts the server comes first. */
export const DEFAULT_DEV_ENTRIES = ['src/server.ts', 'server.ts', ...DEFAULT_ENTRIES] as const;
/** Extensions of modules the runtimes load as an entry. */
export const ENTRY_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;

/** `scheme:` at the start (RFC 3986 §3.1), two letters or more so a Windows drive (`C:`) is not one. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir + sep);

/**
 * The absolute path of `input`, checked: not a URL, no control characters, inside `projectDir` (also
 * once symbolic links are resolved), not inside `node_modules`, an existing regular file with a module
 * extension. Throws a UsageError naming the rule otherwise.
 */
export function resolveEntryPath(input: string, projectDir: string): string {
  if (typeof input !== 'string' || input === '') throw new UsageError('the entry path is empty');
  if (/[\u0000-\u001f\u007f]/.test(input)) {
    throw new UsageError(`the entry path ${shown(input)} contains control characters`);
  }
  if (URL_SCHEME.test(input) || input.startsWith('//')) {
    throw new UsageError(
      `the entry ${shown(input)} is a URL; charter only loads a file of this project (a path like src/app.ts)`,
    );
  }
  const root = resolve(projectDir);
  const absolute = resolve(root, input);
  const rel = relative(root, absolute);
  if (rel === '')
    throw new UsageError(`the entry ${shown(input)} is the project folder; give a file, e.g. src/app.ts`);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new UsageError(
      `the entry ${shown(input)} is outside the project (${root}); give a file inside it, e.g. src/app.ts`,
    );
  }
  if (rel.split(sep).includes('node_modules')) {
    throw new UsageError(
      `the entry ${shown(input)} is inside node_modules; give your own app's file, e.g. src/app.ts`,
    );
  }
  if (!(ENTRY_EXTENSIONS as readonly string[]).some((ext) => absolute.endsWith(ext))) {
    throw new UsageError(
      `the entry ${shown(input)} is not a module: expected a ${ENTRY_EXTENSIONS.join(', ')} file`,
    );
  }
  if (!existsSync(absolute)) throw new UsageError(`the entry ${shown(input)} does not exist`);
  if (!statSync(absolute).isFile()) throw new UsageError(`the entry ${shown(input)} is not a file`);
  const real = realpathSync(absolute);
  const realRoot = realpathSync(root);
  if (!inside(real, realRoot) || relative(realRoot, real).split(sep).includes('node_modules')) {
    throw new UsageError(
      `the entry ${shown(input)} is a link to ${real}, outside the project (or in node_modules)`,
    );
  }
  return absolute;
}

/** The entry to use: `input` when given (checked), else the first default that exists. */
export function findEntry(
  input: string | undefined,
  projectDir: string,
  defaults: readonly string[] = DEFAULT_ENTRIES,
): string {
  if (input !== undefined) return resolveEntryPath(input, projectDir);
  for (const candidate of defaults) {
    if (existsSync(join(projectDir, candidate))) return resolveEntryPath(candidate, projectDir);
  }
  throw new UsageError(
    `no entry given and none of ${defaults.join(', ')} exists in ${resolve(projectDir)}; ` +
      'give the file that exports your app, e.g. `charter routes src/main.ts`',
  );
}

/** What `charter` needs of an App (a Charter `App` has all of it). */
export interface CliApp {
  registeredRoutes(): readonly unknown[];
  fetch(request: Request): Promise<Response>;
  ready(): Promise<unknown>;
  introspect(): readonly unknown[];
  readonly options: object;
}

/** True for a Charter App (checked by shape, so an app built with another copy of charter counts). */
export function isCliApp(value: unknown): value is CliApp {
  if (typeof value !== 'object' || value === null) return false;
  const app = value as Record<string, unknown>;
  return (
    typeof app.registeredRoutes === 'function' &&
    typeof app.fetch === 'function' &&
    typeof app.ready === 'function' &&
    typeof app.introspect === 'function' &&
    typeof app.options === 'object' &&
    app.options !== null
  );
}

/**
 * The App an entry module exports, looked for in this order: the default export (an App, or a
 * function returning one, possibly async), an `app` export, a `createApp()` factory (called with no
 * argument). Throws a UsageError listing what the module exports when none is an App.
 */
export async function appFromModule(module: Record<string, unknown>, where: string): Promise<CliApp> {
  const tried: string[] = [];
  const candidates: Array<[string, unknown, boolean]> = [
    ['default export', module.default, true],
    ['`app` export', module.app, false],
    ['`createApp()`', module.createApp, true],
  ];
  for (const [name, value, callable] of candidates) {
    if (value === undefined) continue;
    tried.push(name);
    if (isCliApp(value)) return value;
    if (callable && typeof value === 'function') {
      const made: unknown = await (value as () => unknown)();
      if (isCliApp(made)) return made;
    }
  }
  const exported = Object.keys(module).sort();
  throw new UsageError(
    `${where} exports no Charter App (${tried.length === 0 ? 'no default, app or createApp export' : `not the ${tried.join(', ')}`}; ` +
      `its exports: ${exported.length === 0 ? 'none' : exported.join(', ')}). ` +
      'Export it as `export default app`, `export const app = ...` or `export function createApp()`',
  );
}
