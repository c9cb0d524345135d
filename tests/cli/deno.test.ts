/**
 * The built bin under Deno 2 (`deno run -A .../dist/cli.js`): Deno is detected from the running process,
 * TypeScript entries load natively, and the commands behave as under Bun and Node.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { CLI_TIMEOUT_MS, fixture, prepareCli, runCharter, runtimePath } from './support.ts';

const charter = (args: string[], cwd = fixture('basic')) => runCharter(args, { cwd, runtime: 'deno' });

beforeAll(() => {
  runtimePath('deno');
  prepareCli();
});

describe('charter under Deno', () => {
  test(
    'dev detects Deno and builds deno run --watch with the running binary',
    async () => {
      const { code, stdout } = await charter(['dev', '--dry-run'], fixture('server'));
      expect(code).toBe(0);
      expect(stdout).toMatch(/ run --watch --allow-net --allow-env --allow-read src\/server\.ts\n$/);
      expect(stdout.startsWith(`${runtimePath('deno')} `)).toBe(true);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'routes and check load the TypeScript entry',
    async () => {
      const routes = await charter(['routes']);
      expect(routes.code).toBe(0);
      expect(routes.stdout).toMatch(/^GET +\/todos\/:id +getTodo +- +200 404$/m);
      const check = await charter(['check'], fixture('issues'));
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('[missing-operation-id]');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'a refused entry exits 2',
    async () => {
      const { code, stderr } = await charter(['routes', 'node_modules/charter/dist/index.js']);
      expect(code).toBe(2);
      expect(stderr).toContain('is inside node_modules');
    },
    CLI_TIMEOUT_MS,
  );
});
