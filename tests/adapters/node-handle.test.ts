/**
 * The handle `serve()` from charter/node returns (issue 20; the reference: "returns `{ port, close }`"):
 * usable at once without awaiting, still awaitable as before, under real Node 24. The script's process
 * must exit by itself once its scenarios are done: a server, signal listener or timer left behind
 * would keep it alive and fail the exit assertion.
 */
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { NODE_TS_FLAGS, node24, ROOT } from './fixtures/node24.ts';

const SCRIPT = join(import.meta.dir, 'fixtures', 'node-handle.ts');

/** The line a scenario printed; throws (failing the test) when the script never printed it. */
function scenario(run: Run, name: string): Record<string, unknown> {
  const line = run.lines[name];
  if (line === undefined) throw new Error(`the script printed no "${name}" line; stderr: ${run.stderr}`);
  return line;
}

interface Run {
  code: number | null;
  exitedBySelf: boolean;
  stderr: string;
  lines: Record<string, Record<string, unknown>>;
}

function runScript(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node24().path, [...NODE_TS_FLAGS, SCRIPT], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let exitedBySelf = true;
    // Far longer than the scenarios need on a loaded machine, far shorter than the 30 s request timeout
    // a leftover timer would hold the process for.
    const guard = setTimeout(() => {
      exitedBySelf = false;
      child.kill('SIGKILL');
    }, 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      const lines: Run['lines'] = {};
      for (const line of stdout.split('\n')) {
        if (line.trim() === '') continue;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines[parsed.scenario as string] = parsed;
      }
      resolve({ code, exitedBySelf, stderr, lines });
    });
  });
}

describe('serve() from charter/node returns a handle (real Node 24)', () => {
  let run: Run = { code: null, exitedBySelf: false, stderr: '', lines: {} };
  test('the script runs every scenario and its process exits by itself', async () => {
    run = await runScript();
    expect(run.stderr).toBe('');
    expect(run.exitedBySelf).toBe(true);
    expect(run.code).toBe(0);
    expect(Object.keys(run.lines).sort()).toEqual([
      'await',
      'close-first',
      'failed-start',
      'handle',
      'invalid-options',
    ]);
  }, 30_000);

  test('the handle is usable at once: close() exists, port throws until ready, then serves', () => {
    const line = scenario(run, 'handle');
    expect(line.closeType).toBe('function');
    expect(line.portBefore).toBe('The server is not listening yet: await serve(...) or handle.ready first');
    expect(line.port).toBeGreaterThan(0);
    expect(line.url).toBe(`http://127.0.0.1:${line.port}`);
    expect(line.served).toEqual({ status: 200, type: 'application/json', body: { hi: 'there' } });
    expect(line.refusedAfterClose).toBe(true);
  });

  test('close() before the server listens stops it once it does', () => {
    expect(scenario(run, 'close-first')).toEqual({ scenario: 'close-first', refused: true });
  });

  test('`await serve(...)` gives the listening server (not another thenable)', () => {
    const line = scenario(run, 'await');
    expect(line.port).toBeGreaterThan(0);
    expect(line.served).toEqual({ status: 200, type: 'application/json', body: { hi: 'there' } });
    expect(line.thenable).toBe(false);
  });

  test('a failed start rejects ready and await; close() settles; port keeps saying why', () => {
    const line = scenario(run, 'failed-start');
    expect(line.readyError).toContain('EADDRINUSE');
    expect(line.awaitError).toContain('EADDRINUSE');
    expect(line.portAfterFailure).toBe(
      'The server is not listening yet: await serve(...) or handle.ready first',
    );
  });

  test('invalid options reject the start, naming the option', () => {
    expect(scenario(run, 'invalid-options').error).toContain('Invalid serve() option "port"');
  });
});
