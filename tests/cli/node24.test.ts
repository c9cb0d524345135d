/**
 * The same built bin under real Node 24 (NODE24_PATH; see tests/adapters/fixtures/node24.ts): Node
 * loads the TypeScript entries by stripping their types (on by default in Node 24), and every command
 * behaves as under Bun.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { node24 } from '../adapters/fixtures/node24.ts';
import { CLI_TIMEOUT_MS, fixture, prepareCli, runCharter, tempDir } from './support.ts';

const tmp = tempDir();
const charter = (args: string[], cwd = fixture('basic')) => runCharter(args, { cwd, runtime: 'node' });

beforeAll(() => {
  node24();
  prepareCli();
});
afterAll(() => tmp.remove());

describe('charter under Node 24', () => {
  test(
    'routes loads src/app.ts with type stripping',
    async () => {
      const { code, stdout, stderr } = await charter(['routes']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^GET +\/todos\/:id +getTodo +- +200 404$/m);
      expect(stdout).toMatch(/^POST +\/todos +createTodo +bearerAuth +201$/m);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'openapi prints the same document as under Bun',
    async () => {
      const [underNode, underBun] = await Promise.all([
        charter(['openapi']),
        runCharter(['openapi'], { cwd: fixture('basic'), runtime: 'bun' }),
      ]);
      expect(underNode.code).toBe(0);
      expect(JSON.parse(underNode.stdout)).toEqual(JSON.parse(underBun.stdout));
      const out = join(tmp.path, 'openapi.yaml');
      const yaml = await charter(['openapi', '--yaml', '--out', out]);
      expect(yaml.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain('operationId: getTodo');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'check exits 1 on contract issues, 0 on a clean app',
    async () => {
      expect((await charter(['check'])).code).toBe(0);
      const { code, stdout } = await charter(['check'], fixture('issues'));
      expect(code).toBe(1);
      expect(stdout).toContain('[missing-operation-id]');
      expect(stdout).toContain('[invalid-example]');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'doctor exits 1 on the CSRF error, 0 on a safe app',
    async () => {
      expect((await charter(['doctor'])).code).toBe(0);
      const { code, stdout } = await charter(['doctor'], fixture('insecure'));
      expect(code).toBe(1);
      expect(stdout).toContain('[csrf-missing]');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'diff exits 1 on breaking changes',
    async () => {
      const { code, stdout } = await charter(['diff', 'v1.json', 'v2-breaking.json'], fixture('openapi'));
      expect(code).toBe(1);
      expect(stdout).toStartWith('13 breaking changes:\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'ai prints the catalogue',
    async () => {
      const { code, stdout } = await charter(['ai']);
      expect(code).toBe(0);
      expect(stdout).toContain('### GET /todos/{id} (getTodo)');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'refusals: an entry outside the project (2), an entry without an App (2)',
    async () => {
      const outside = await charter(['routes', '../named/app.ts']);
      expect(outside.code).toBe(2);
      expect(outside.stderr).toContain('is outside the project');
      const noApp = await charter(['routes'], fixture('no-app'));
      expect(noApp.code).toBe(2);
      expect(noApp.stderr).toContain('exports no Charter App');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'TypeScript that type stripping cannot run (an enum) exits 1 with the way out',
    async () => {
      const { code, stderr } = await charter(['routes'], fixture('enum'));
      expect(code).toBe(1);
      expect(stderr).toContain('cannot load src/app.ts');
      expect(stderr).toContain('--experimental-transform-types');
      // Bun runs the same entry.
      const bun = await runCharter(['routes'], { cwd: fixture('enum'), runtime: 'bun' });
      expect(bun.code).toBe(0);
    },
    CLI_TIMEOUT_MS,
  );
});
