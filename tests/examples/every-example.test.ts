/**
 * Every example a user can run (`examples/*.ts`) is started by a test of this folder, so a new example
 * cannot arrive without one, and every example imports charter as a user would (never `@charter/*`).
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from './support.ts';

const examples = readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.ts'));
const tests = readdirSync(import.meta.dir)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => readFileSync(join(import.meta.dir, name), 'utf8'))
  .join('\n');

/** Every .ts file under examples/, helpers in subfolders included. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('examples/', () => {
  test('has the examples users look for first', () => {
    expect(examples).toEqual(
      expect.arrayContaining([
        'crud-sqlite.ts',
        'file-upload.ts',
        'websocket-chat.ts',
        'sse.ts',
        'session-login.ts',
        'typed-client.ts',
      ]),
    );
  });

  test.each(examples)('%s is started by a test', (example) => {
    expect(tests).toContain(`startExample('${example}'`);
  });

  test('no example imports a workspace package', () => {
    const offending = sources(EXAMPLES_DIR).filter((file) =>
      /from '@charter\//.test(readFileSync(file, 'utf8')),
    );
    expect(offending).toEqual([]);
  });
});
