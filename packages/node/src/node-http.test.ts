import { describe, expect, test } from 'bun:test';
import { createServer, STATUS_CODES } from 'node:http';
import { join } from 'node:path';

describe('node-http: node:http without an ESM import of it', () => {
  test('is the runtime node:http module itself', async () => {
    const { http } = await import('./node-http.ts');
    expect(http.createServer).toBe(createServer);
    expect(http.STATUS_CODES).toBe(STATUS_CODES);
  });

  test('a runtime without process.getBuiltinModule is refused at import, naming what is needed', async () => {
    const module = join(import.meta.dir, 'node-http.ts');
    const child = Bun.spawn(
      [process.execPath, '-e', `delete process.getBuiltinModule; await import(${JSON.stringify(module)});`],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(
      'charter/node needs Node 24 or later: this runtime has no process.getBuiltinModule to reach node:http with',
    );
  });
});
