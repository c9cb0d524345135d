/** Flags and steps the app commands share: the entry, the runtime, loading the App, its OpenAPI document. */
import { appInfo, generateOpenAPI, type OpenAPIDocument } from '@charter/openapi';
import type { FlagSpec, ParsedArgs } from '../args.ts';
import type { CliContext } from '../context.ts';
import { type CliApp, DEFAULT_ENTRIES, findEntry } from '../entry.ts';
import { loadApp } from '../load.ts';

export const HELP_FLAG: FlagSpec = { type: 'boolean', short: 'h', description: 'show this help' };
export const JSON_FLAG: FlagSpec = { type: 'boolean', description: 'print JSON instead of text' };
export const OUT_FLAG: FlagSpec = {
  type: 'string',
  valueName: 'file',
  description: 'write to <file> instead of standard output',
};

export const ENTRY_DETAIL =
  `[entry] is the module that exports your App (default: ${DEFAULT_ENTRIES.join(', then ')}): ` +
  'its default export, an `app` export, or a `createApp()` factory. It must be a file inside the current directory.';

/** The entry of `args` (its first positional, else a default) and the App it exports. */
export async function appOf(args: ParsedArgs, context: CliContext): Promise<{ entry: string; app: CliApp }> {
  const entry = findEntry(args.positionals[0], context.cwd);
  const app = await loadApp(entry, context.cwd);
  // Plugins may register routes while installing: wait for them, as a server would.
  await app.ready();
  return { entry, app };
}

/**
 * The app's OpenAPI document: the mounted one when the App serves it (its options: servers, schemas,
 * webhooks...), else generated with the App's title and version.
 */
export function documentOf(app: CliApp): OpenAPIDocument {
  const mounted = (app as { openapi?: { document?: unknown } }).openapi;
  if (typeof mounted?.document === 'function') return (mounted.document as () => OpenAPIDocument)();
  const core = app as unknown as Parameters<typeof generateOpenAPI>[0];
  return generateOpenAPI(core, { info: appInfo(core) });
}
