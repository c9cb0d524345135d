/**
 * charter/node writes the head of a planned answer from a field table node:http is lent for the
 * writeHead (response.ts, `writePlannedHead`): checked once with node:http's own validators instead of
 * on every response, runs of fields node:http does not read itself joined into one entry. Under real Node 24: the bytes are those of the same lines passed to writeHead,
 * each response gets its own Content-Length, nothing stays on the response, and a set node:http would
 * refuse is still refused.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { lendsFieldTables, writePlanned } from '../../packages/node/src/response.ts';
import { NODE_TS_FLAGS, node24, ROOT } from './fixtures/node24.ts';

const SCRIPT = join(import.meta.dir, 'fixtures', 'node-planned-head.ts');
let lines: Record<string, Record<string, unknown>> = {};
let stderr = '';

beforeAll(() => {
  const run = spawnSync(node24().path, [...NODE_TS_FLAGS, SCRIPT], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  stderr = run.stderr;
  for (const line of run.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as Record<string, unknown>;
    lines[parsed.scenario as string] = parsed;
  }
}, 70_000);

function scenario(name: string): Record<string, unknown> {
  const line = lines[name];
  if (line === undefined) throw new Error(`the script printed no "${name}" line; stderr: ${stderr}`);
  return line;
}

describe('charter/node planned heads from checked field tables (real Node 24)', () => {
  test('Node 24 is lent the table, and the head is byte for byte what the lines give', () => {
    const same = scenario('same-head');
    expect(same.lent).toBe(true);
    expect(same.table).toBe(same.lines);
    expect(same.equal).toBe(true);
    const head = same.table as string;
    expect(head.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(head).toContain("\r\ncontent-security-policy: default-src 'none'\r\n");
    expect(head).toContain('\r\nx-frame-options: DENY\r\n');
    expect(head).toContain('\r\ncontent-length: 11\r\n');
    expect(head.endsWith('\r\n\r\n{"ok":true}')).toBe(true);
  });

  test('each response carries its own Content-Length, and the table does not stay on the response', () => {
    const long = scenario('own-length').long as string;
    expect(long).toContain('\r\ncontent-length: 24\r\n');
    expect(long.endsWith('{"text":"a longer body"}')).toBe(true);
    expect(scenario('nothing-left').fieldsAfter).toEqual([[], []]);
  });

  test('fields node:http reads itself (Date, Keep-Alive) still reach it among joined ones: the same head', () => {
    const mixed = scenario('mixed');
    expect(mixed.table).toBe(mixed.lines);
    const head = mixed.table as string;
    // A Date of the set's own: node:http adds none; a Keep-Alive of its own: node:http adds none.
    expect(head).toContain('\r\ndate: Sat, 01 Jan 2000 00:00:00 GMT\r\n');
    expect(head).not.toContain('\r\nDate: ');
    expect(head).toContain('\r\nkeep-alive: timeout=7\r\n');
    expect(head).not.toContain('\r\nKeep-Alive: ');
    expect(head).toContain('\r\nx-one: 1\r\nx-three: 3\r\nx-two: 2\r\n');
  });

  test('a header set node:http refuses is refused as before: no table, writeHead throws', () => {
    expect(scenario('refused').threw).toBe('ERR_INVALID_CHAR');
    expect(scenario('refused-answer').refused).toBe('');
  });

  test("under Bun's node:http no table is lent (it sends heads from its own storage): every field arrives", async () => {
    const lines = ['content-type', 'application/json', 'x-frame-options', 'DENY'];
    let lent: boolean | undefined;
    const server = createServer((req, res) => {
      lent = lendsFieldTables(res);
      writePlanned(req, res, { status: 200, lines, payload: '{"ok":true}' }, false);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      expect(lent).toBe(false);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-length')).toBe('11');
      expect(await response.text()).toBe('{"ok":true}');
    } finally {
      server.close();
    }
  });
});
