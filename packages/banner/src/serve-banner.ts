/**
 * The banner the runtime adapters print when `serve()` listens: the app's title and version, where it
 * listens, and its docs page and OpenAPI document when the App mounts them. Machines read the
 * structured "Listening" log line instead, which the adapters log either way.
 */
import { type PrintStartupBannerOptions, printStartupBanner, type StartupBannerLink } from './format.ts';
import { currentProcess, currentTerminal, type TerminalEnvironment } from './terminal.ts';

/** What the banner reads of an App (a Charter `App` has all of it; each field may be missing). */
export interface BannerApp {
  readonly options?: { readonly title?: string; readonly version?: string };
  /** The mounted OpenAPI document (App option `openapi` or `docs`). */
  readonly openapi?: { readonly path?: string; readonly yamlPath?: string | false } | undefined;
  /** The path of the interactive docs page (App option `docs`). */
  readonly docsPath?: string | undefined;
}

/**
 * Whether `serve()` prints the banner: `true` always, `false` never; otherwise (the default) only for a
 * person watching: standard output is a terminal and `NODE_ENV` is not `test` (`bun test` sets it), so
 * test runs, pipes, containers and process managers get the log line alone.
 */
export function shouldPrintServeBanner(option: unknown, terminal?: TerminalEnvironment): boolean {
  if (option === true) return true;
  if (option === false) return false;
  // The terminal is asked only now: `banner: false` spares every start that question (the tty
  // binding, the environment), which a default parameter would ask first (issue 18, item 6).
  const seen = terminal ?? currentTerminal();
  return seen.isTTY === true && seen.env?.NODE_ENV !== 'test';
}

/** `bun 1.3.0`, `deno 2.5.0` or `node v24.1.0`: what runs this code. */
export function runtimeLabel(): string {
  const g = globalThis as { Bun?: { version?: string }; Deno?: { version?: { deno?: string } } };
  if (typeof g.Bun?.version === 'string') return `bun ${g.Bun.version}`;
  if (typeof g.Deno?.version?.deno === 'string') return `deno ${g.Deno.version.deno}`;
  const node = (currentProcess() as { versions?: { node?: string } } | undefined)?.versions?.node;
  return typeof node === 'string' ? `node v${node}` : '';
}

function join(base: string, path: unknown): string | undefined {
  if (typeof path !== 'string' || !path.startsWith('/')) return undefined;
  return `${base.replace(/\/+$/, '')}${path}`;
}

/**
 * `url` as a person can open it: a server listening on every interface (`0.0.0.0`, `[::]`) is reached
 * on this machine at `localhost`.
 */
export function browsableUrl(url: string): string {
  return url.replace(/^(https?:\/\/)(?:0\.0\.0\.0|\[::\])(?=[:/]|$)/, '$1localhost');
}

/** The banner options for `app` listening at `url`: its name, version, runtime, docs and OpenAPI links. */
export function serveBannerOptions(app: BannerApp, listeningUrl: string): PrintStartupBannerOptions {
  const url = typeof listeningUrl === 'string' ? browsableUrl(listeningUrl) : listeningUrl;
  const links: StartupBannerLink[] = [];
  const docs = join(url, app?.docsPath);
  if (docs !== undefined) links.push({ label: 'Docs', url: docs });
  const openapi = join(url, app?.openapi?.path);
  if (openapi !== undefined) links.push({ label: 'OpenAPI', url: openapi });
  const options: PrintStartupBannerOptions = { name: app?.options?.title ?? 'app', url, links };
  const version = app?.options?.version;
  if (version !== undefined) options.version = version;
  const runtime = runtimeLabel();
  if (runtime !== '') options.runtime = runtime;
  return options;
}

/**
 * Called by the adapters once the server listens: prints the banner when `option` (the `banner` serve
 * option) and the terminal say so (see `shouldPrintServeBanner`). Never throws.
 */
export function printServeBanner(app: BannerApp, url: string, option: unknown): void {
  try {
    if (shouldPrintServeBanner(option)) printStartupBanner(serveBannerOptions(app, url));
  } catch {
    // A banner is never worth failing a start.
  }
}
