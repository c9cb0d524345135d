/** Small text helpers shared by the commands: safe cells, tables, writing a file. */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { terminalSafeText } from '@charter/banner';
import { shown, UsageError } from './args.ts';

/** Text from an app or a document, safe to print: controls removed, cut at `max`. */
export const cell = (value: unknown, max = 120): string => terminalSafeText(value, { maxLength: max });

/** A plain-text table: header row, then rows, columns padded to their widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** `--out <file>`: writes `text` (creating parent folders), refusing a URL or a directory. */
export function writeOutFile(path: string, cwd: string, text: string): string {
  if (/^[a-z][a-z0-9+.-]+:/i.test(path))
    throw new UsageError(`--out ${shown(path)} is a URL; give a file path`);
  const absolute = resolve(cwd, path);
  if (existsSync(absolute) && statSync(absolute).isDirectory()) {
    throw new UsageError(`--out ${shown(path)} is a directory; give a file path`);
  }
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
  return absolute;
}
