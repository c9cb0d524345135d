/** The startup banner: a few lines a person reads when a server starts (the app, where it listens, its docs). */
import { terminalSafeText } from './sanitize.ts';
import { currentProcess, currentTerminal, shouldUseColor, supportsUnicode } from './terminal.ts';

/** One extra URL of the banner, e.g. `{ label: 'Docs', url: 'http://localhost:3000/docs' }`. */
export interface StartupBannerLink {
  label: string;
  url: string;
}

/** Options of `formatStartupBanner` and `printStartupBanner`. */
export interface StartupBannerOptions {
  /** The app's name (e.g. its `title`); `app` when missing. */
  name?: string;
  /** The app's version, shown as `v1.2.3` when it starts with a digit. */
  version?: string;
  /** Where the server listens (the `Local` line). */
  url?: string;
  /** What runs it, e.g. `bun 1.3.0` or `node v24.1.0`. */
  runtime?: string;
  /** More URLs, in order: docs, OpenAPI document... Entries without a URL are left out. */
  links?: readonly StartupBannerLink[];
  /** Colour with ANSI SGR codes; default: `FORCE_COLOR`, else `NO_COLOR`, else whether stdout is a terminal. */
  color?: boolean;
  /** ASCII only (`->` instead of `➜`); default: when the locale (`LC_ALL`, `LC_CTYPE`, `LANG`) is not UTF-8. */
  ascii?: boolean;
}

/** Options of `printStartupBanner`: the banner's, and where the text goes (default: standard output). */
export interface PrintStartupBannerOptions extends StartupBannerOptions {
  write?: (text: string) => void;
}

/** At most this many links are shown: the banner is a greeting, not a route table. */
const MAX_LINKS = 12;

// ECMA-48 SGR sequences; each styled piece resets after itself.
const style = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const STYLES = {
  bold: style('1'),
  dim: style('2'),
  green: style('32'),
  cyan: style('36'),
  boldCyan: style('1;36'),
};
const PLAIN: typeof STYLES = {
  bold: (t) => t,
  dim: (t) => t,
  green: (t) => t,
  cyan: (t) => t,
  boldCyan: (t) => t,
};

function read(options: unknown, key: string): unknown {
  if (typeof options !== 'object' || options === null) return undefined;
  try {
    return (options as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function linksOf(value: unknown, ascii: boolean): Array<{ label: string; url: string }> {
  if (!Array.isArray(value)) return [];
  const links: Array<{ label: string; url: string }> = [];
  for (const entry of value.slice(0, MAX_LINKS)) {
    const url = terminalSafeText(read(entry, 'url'), { ascii });
    if (url === '') continue;
    links.push({
      label: terminalSafeText(read(entry, 'label'), { fallback: 'Link', maxLength: 24, ascii }),
      url,
    });
  }
  return links;
}

/**
 * The banner's text (lines ending in `\n`), for example:
 *
 * ```text
 *
 *   Todos v1.0.0 · Charter on bun 1.3.0
 *
 *   ➜ Local:   http://127.0.0.1:3000
 *   ➜ Docs:    http://127.0.0.1:3000/docs
 *
 * ```
 *
 * Never throws: a missing or odd value is left out (or shown as `app`), control characters are removed
 * so a name cannot inject terminal escapes, and long values are cut.
 * @since 0.1.0
 */
export function formatStartupBanner(options: StartupBannerOptions): string {
  const terminal = currentTerminal();
  const colorOption = read(options, 'color');
  const asciiOption = read(options, 'ascii');
  const color = typeof colorOption === 'boolean' ? colorOption : shouldUseColor(terminal);
  const ascii = typeof asciiOption === 'boolean' ? asciiOption : !supportsUnicode(terminal);
  const s = color ? STYLES : PLAIN;
  const name = terminalSafeText(read(options, 'name'), { fallback: 'app', maxLength: 80, ascii });
  const rawVersion = terminalSafeText(read(options, 'version'), { maxLength: 40, ascii });
  const version = /^\d/.test(rawVersion) ? `v${rawVersion}` : rawVersion;
  const runtime = terminalSafeText(read(options, 'runtime'), { maxLength: 60, ascii });
  const dot = ascii ? '-' : '\u00b7';
  const arrow = ascii ? '->' : '\u279c';

  let title = s.boldCyan(name);
  if (version !== '') title += ` ${s.dim(version)}`;
  title += ` ${dot} Charter`;
  if (runtime !== '') title += ` on ${runtime}`;

  const rows: Array<{ label: string; url: string }> = [];
  const url = terminalSafeText(read(options, 'url'), { ascii });
  if (url !== '') rows.push({ label: 'Local', url });
  rows.push(...linksOf(read(options, 'links'), ascii));
  const width = Math.max(0, ...rows.map((row) => row.label.length + 1));

  const lines = ['', `  ${title}`, ''];
  for (const row of rows) {
    lines.push(`  ${s.green(arrow)} ${s.bold(`${row.label}:`.padEnd(width))} ${s.cyan(row.url)}`);
  }
  if (rows.length > 0) lines.push('');
  return `${lines.join('\n')}\n`;
}

/**
 * Prints the banner (see `formatStartupBanner`) to standard output, or to `options.write`. Never throws:
 * a failing write is ignored, as a banner is not worth a crash.
 * @since 0.1.0
 */
export function printStartupBanner(options: PrintStartupBannerOptions): void {
  try {
    const text = formatStartupBanner(options);
    const write = read(options, 'write');
    if (typeof write === 'function') {
      write(text);
      return;
    }
    const stdout = currentProcess()?.stdout;
    if (typeof stdout?.write === 'function') stdout.write(text);
    else console.log(text.replace(/\n$/, ''));
  } catch {
    // Nothing to do: the structured "Listening" log line still says where the server is.
  }
}
