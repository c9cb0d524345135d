/** `charter diff <old.json> <new.json> [--json]`: OpenAPI breaking changes; exit 1 when there is one. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { shown, UsageError } from '../args.ts';
import { type Command, EXIT } from '../context.ts';
import { type ApiChange, diffOpenAPI } from '../openapi-diff.ts';
import { cell } from '../output.ts';
import { HELP_FLAG, JSON_FLAG } from './shared.ts';

/** Largest document read (a generated OpenAPI document of thousands of operations is a few MiB). */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** Reads and parses one OpenAPI JSON document, with a UsageError saying what is wrong with it. */
export function readOpenAPIFile(path: string, cwd: string): unknown {
  if (/^[a-z][a-z0-9+.-]+:/i.test(path)) {
    throw new UsageError(`${shown(path)} is a URL; download the document and give its file`);
  }
  const absolute = resolve(cwd, path);
  if (!existsSync(absolute)) throw new UsageError(`${shown(path)} does not exist`);
  const stat = statSync(absolute);
  if (!stat.isFile()) throw new UsageError(`${shown(path)} is not a file`);
  if (stat.size > MAX_DOCUMENT_BYTES) throw new UsageError(`${shown(path)} is larger than 64 MiB`);
  const text = readFileSync(absolute, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    const yaml = /\.ya?ml$/i.test(path)
      ? ' (YAML is not read: write JSON with `charter openapi --out file.json`)'
      : '';
    throw new UsageError(`${shown(path)} is not JSON${yaml}: ${(error as Error).message}`);
  }
}

const describe = (change: ApiChange): string =>
  `${cell(change.operation, 200)}${change.at === '' ? '' : ` ${cell(change.at, 200)}`}: ${cell(change.message, 300)} [${change.code}]`;

export const diffCommand: Command = {
  name: 'diff',
  usage: 'diff <old.json> <new.json> [--json]',
  summary: 'list the changes between two OpenAPI documents; exit 1 when one breaks clients',
  details: [
    'Breaking: removed operations, new required parameters or request fields, parameters that became required, removed media types or response statuses, response fields removed or no longer always present, changed types, narrowed request enums and constraints, widened response enums, operations that now need authentication.',
    'Non-breaking changes (added operations, optional fields, statuses...) are listed after them.',
  ],
  flags: { json: JSON_FLAG, help: HELP_FLAG },
  maxPositionals: 2,
  async run(args, context) {
    const [oldPath, newPath] = args.positionals;
    if (oldPath === undefined || newPath === undefined) {
      throw new UsageError('diff needs two files: charter diff <old.json> <new.json>');
    }
    let result: ReturnType<typeof diffOpenAPI>;
    try {
      result = diffOpenAPI(readOpenAPIFile(oldPath, context.cwd), readOpenAPIFile(newPath, context.cwd));
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    const { breaking, nonBreaking } = result;
    if (args.flags.json === true) {
      context.stdout(`${JSON.stringify({ breaking, nonBreaking }, null, 2)}\n`);
    } else {
      const lines: string[] = [];
      if (breaking.length === 0) lines.push('No breaking change.');
      else
        lines.push(
          `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'}:`,
          ...breaking.map((c) => `  - ${describe(c)}`),
        );
      if (nonBreaking.length > 0) {
        lines.push(
          `${nonBreaking.length} other change${nonBreaking.length === 1 ? '' : 's'}:`,
          ...nonBreaking.map((c) => `  + ${describe(c)}`),
        );
      }
      context.stdout(`${lines.join('\n')}\n`);
    }
    return breaking.length > 0 ? EXIT.findings : EXIT.ok;
  },
};
