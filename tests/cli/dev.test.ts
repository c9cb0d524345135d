/**
 * `charter dev`: the command it builds for each runtime (--dry-run), its refusals, and real runs: under
 * Bun (`bun --hot`) and under Node 24 (`node --watch`, which restarts on a change), each serving the
 * fixture's app on a free port until charter is stopped, which stops the server too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { node24 } from '../adapters/fixtures/node24.ts';
import {
  CHARTER_DIR,
  CLI,
  CLI_TIMEOUT_MS,
  cleanEnv,
  fixture,
  prepareCli,
  ROOT,
  type Runtime,
  runCharter,
  runtimePath,
  tempDir,
} from './support.ts';

const server = fixture('server');
const tmp = tempDir();
const running = new Set<ChildProcess>();

beforeAll(() => prepareCli());
afterEach(() => {
  // Whatever a test left running: charter and the runtime it started share a process group.
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  running.clear();
});
afterAll(() => tmp.remove());

describe('charter dev --dry-run', () => {
  test(
    'under Bun: the running bun binary with --hot and the default entry src/server.ts',
    async () => {
      const { code, stdout } = await runCharter(['dev', '--dry-run'], { cwd: server });
      expect(code).toBe(0);
      expect(stdout).toBe(`${process.execPath} --hot src/server.ts\n`);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--runtime picks node --watch or deno run --watch with the permissions a server needs',
    async () => {
      const node = await runCharter(['dev', '--runtime', 'node', '--dry-run', 'src/app.ts'], { cwd: server });
      expect(node.stdout).toBe('node --watch src/app.ts\n');
      const deno = await runCharter(['dev', '--runtime=deno', '--dry-run'], { cwd: server });
      expect(deno.stdout).toBe('deno run --watch --allow-net --allow-env --allow-read src/server.ts\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'arguments after -- go to the entry',
    async () => {
      const { stdout } = await runCharter(['dev', '--dry-run', '--', '--port', '4000'], { cwd: server });
      expect(stdout).toBe(`${process.execPath} --hot src/server.ts --port 4000\n`);
      const node = await runCharter(['dev', '--dry-run', '--runtime', 'node', '--', 'src/app.ts'], {
        cwd: server,
      });
      expect(node.stdout).toBe('node --watch src/server.ts src/app.ts\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'refusals: an unknown runtime, an entry outside the project, no entry at all (exit 2)',
    async () => {
      const rust = await runCharter(['dev', '--runtime', 'rust'], { cwd: server });
      expect(rust.code).toBe(2);
      expect(rust.stderr).toContain('--runtime must be one of node, bun, deno; got "rust"');
      const outside = await runCharter(['dev', '../basic/src/app.ts'], { cwd: server });
      expect(outside.code).toBe(2);
      expect(outside.stderr).toContain('is outside the project');
      const none = await runCharter(['dev'], { cwd: tmp.path });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('none of src/server.ts, server.ts, src/app.ts, app.ts exists');
    },
    CLI_TIMEOUT_MS,
  );
});

/** Starts `charter dev` (in its own process group) and hands each line of its stdout to `lines`. */
function startDev(runtime: Runtime, cwd: string, args: string[] = []) {
  const child = spawn(runtimePath(runtime), [CLI, 'dev', ...args], {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  const waiters = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const waiter of waiters) waiter();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** The `nth` (1-based) SERVING line: `SERVING <url> <runtime> <args>`. */
  const serving = (nth = 1, timeoutMs = 45_000) =>
    new Promise<{ url: string; runtime: string; args: string[] }>((resolve, reject) => {
      const check = () => {
        const found = lines.filter((l) => l.startsWith('SERVING '));
        const line = found[nth - 1];
        if (line === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        const [, url, name, json] = line.match(/^SERVING (\S+) (\S+) (.*)$/) ?? [];
        resolve({ url: url as string, runtime: name as string, args: JSON.parse(json as string) });
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no SERVING line #${nth}; stdout: ${lines.join('\n')}; stderr: ${stderr}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, serving, exited, stderr: () => stderr };
}

describe('charter dev, running', () => {
  test(
    'under Bun it serves the entry, and stopping charter stops the server',
    async () => {
      const dev = startDev('bun', server, ['--', '--flag']);
      const { url, runtime, args } = await dev.serving();
      expect(runtime).toBe('bun');
      expect(args).toEqual(['--flag']);
      const response = await fetch(`${url}/hello`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hello: 'world' });
      dev.child.kill('SIGTERM');
      await dev.exited;
      await expect(fetch(`${url}/hello`)).rejects.toThrow();
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'under Node 24 it runs node --watch, which restarts the server when a file changes',
    async () => {
      node24();
      // A copy of the fixture in a temporary project, so the test can edit it.
      const project = join(tmp.path, 'watched');
      mkdirSync(join(project, 'src'), { recursive: true });
      mkdirSync(join(project, 'node_modules'), { recursive: true });
      symlinkSync(CHARTER_DIR, join(project, 'node_modules', 'charter'));
      symlinkSync(join(ROOT, 'node_modules', 'arktype'), join(project, 'node_modules', 'arktype'));
      writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
      const app = (greeting: string) =>
        `import { type } from 'arktype';\nimport { App } from 'charter';\n` +
        `export const app = new App({ title: 'Watched', version: '1.0.0', behindProxy: 'none', logger: false });\n` +
        `app.get('/hello', { operationId: 'hello', responses: { 200: { body: type({ hello: 'string' }) } } }, () => ({ status: 200, body: { hello: '${greeting}' } }));\n`;
      writeFileSync(join(project, 'src', 'app.ts'), app('world'));
      writeFileSync(
        join(project, 'src', 'server.ts'),
        `import { serve } from 'charter/node';\nimport { app } from './app.ts';\n` +
          `const server = await serve(app, { port: 0 });\nconsole.log(\`SERVING \${server.url} node []\`);\n`,
      );
      const dev = startDev('node', project);
      const first = await dev.serving(1);
      expect(first.runtime).toBe('node');
      expect(await (await fetch(`${first.url}/hello`)).json()).toEqual({ hello: 'world' });

      writeFileSync(join(project, 'src', 'app.ts'), app('again'));
      const second = await dev.serving(2);
      expect(await (await fetch(`${second.url}/hello`)).json()).toEqual({ hello: 'again' });
      dev.child.kill('SIGTERM');
      await dev.exited;
      await expect(fetch(`${second.url}/hello`)).rejects.toThrow();
    },
    CLI_TIMEOUT_MS * 2,
  );
});
