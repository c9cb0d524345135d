/** Importing the entry and finding its App, with hints for the ways Node commonly fails to load TypeScript. */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';
import { appFromModule, type CliApp } from './entry.ts';

/** The entry could not be imported (its own code threw, or the runtime could not load it): exit 1. */
export class EntryLoadError extends Error {
  override readonly name = 'EntryLoadError';
}

const HINTS: Record<string, string> = {
  ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX:
    'Node runs TypeScript by stripping types only: enums, namespaces and constructor parameter properties ' +
    'need a transform. Run `NODE_OPTIONS=--experimental-transform-types charter ...`, or use Bun.',
  ERR_UNKNOWN_FILE_EXTENSION:
    'This Node cannot load .ts files: use Node 24 or later (it strips TypeScript types by default), or Bun.',
  ERR_MODULE_NOT_FOUND:
    'Under Node, relative imports name the file with its extension (`./routes.ts`), and packages must be installed.',
};

/** Imports `entry` (an absolute path checked by `resolveEntryPath`) and returns the App it exports. */
export async function loadApp(entry: string, projectDir: string): Promise<CliApp> {
  const shownPath = relative(projectDir, entry) || entry;
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const hint = typeof code === 'string' ? HINTS[code] : undefined;
    const message = error instanceof Error ? error.message : String(error);
    throw new EntryLoadError(`cannot load ${shownPath}: ${message}${hint === undefined ? '' : `\n${hint}`}`, {
      cause: error,
    });
  }
  try {
    return await appFromModule(module, shownPath);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new EntryLoadError(`the app factory of ${shownPath} failed: ${message}`, { cause: error });
  }
}
