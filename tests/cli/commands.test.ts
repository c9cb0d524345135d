/**
 * The `charter` bin, built, run under Bun as a user runs it: every command's good path and each of its
 * refusals, with exit codes (0 ok, 1 findings, 2 usage) and what it prints on stdout and stderr.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_TIMEOUT_MS, fixture, prepareCli, runCharter, tempDir } from './support.ts';

const basic = fixture('basic');
const tmp = tempDir();
// Not JSON: written here, as a broken .json file in the tree would fail the repository's format check.
const brokenJson = join(tmp.path, 'broken.json');
writeFileSync(brokenJson, '{"openapi": "3.1.0", "paths": {\n');

beforeAll(() => prepareCli());
afterAll(() => tmp.remove());

const charter = (args: string[], cwd = basic, env?: Record<string, string>) =>
  runCharter(args, { cwd, runtime: 'bun', ...(env ? { env } : {}) });

describe('charter (no command), --help, --version', () => {
  test(
    '--help lists every command and the exit codes',
    async () => {
      const { code, stdout, stderr } = await charter(['--help']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      for (const name of ['routes', 'openapi', 'check', 'doctor', 'dev', 'diff', 'ai']) {
        expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
      }
      expect(stdout).toContain('Exit codes: 0 ok, 1 findings');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'no command prints the usage on stderr and exits 2',
    async () => {
      const { code, stdout, stderr } = await charter([]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('Usage: charter <command>');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'an unknown command exits 2 with a did-you-mean',
    async () => {
      const { code, stderr } = await charter(['rotues']);
      expect(code).toBe(2);
      expect(stderr).toContain('unknown command "rotues"; did you mean routes?');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'help <command> and <command> --help print its usage and options',
    async () => {
      const viaHelp = await charter(['help', 'openapi']);
      const viaFlag = await charter(['openapi', '--help']);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaFlag.stdout).toContain('Usage: charter openapi [entry] [--yaml] [--out file]');
      expect(viaFlag.stdout).toContain('--out <file>');
      const unknown = await charter(['help', 'nope']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown command "nope"');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--version prints the package version',
    async () => {
      const manifest = JSON.parse(
        readFileSync(join(import.meta.dir, '../../packages/charter/package.json'), 'utf8'),
      );
      const { code, stdout } = await charter(['--version']);
      expect(code).toBe(0);
      expect(stdout).toBe(`${manifest.version}\n`);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter routes', () => {
  test(
    'prints a table of the default entry (src/app.ts)',
    async () => {
      const { code, stdout, stderr } = await charter(['routes']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      const lines = stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^METHOD +PATH +OPERATION +AUTH +RESPONSES$/);
      expect(lines).toContainEqual(expect.stringMatching(/^GET +\/todos\/:id +getTodo +- +200 404$/));
      expect(lines).toContainEqual(expect.stringMatching(/^POST +\/todos +createTodo +bearerAuth +201$/));
      expect(lines).toContainEqual(expect.stringMatching(/^GET +\/docs /));
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--json prints what app.introspect() describes',
    async () => {
      const { code, stdout } = await charter(['routes', '--json']);
      expect(code).toBe(0);
      const routes = JSON.parse(stdout) as Array<Record<string, unknown>>;
      expect(routes.find((r) => r.operationId === 'createTodo')).toMatchObject({
        method: 'POST',
        path: '/todos',
        hasBody: true,
        responses: [201],
        auth: { scheme: 'bearerAuth' },
      });
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'finds an `app` export in app.ts, the second default entry',
    async () => {
      const { code, stdout } = await charter(['routes'], fixture('named'));
      expect(code).toBe(0);
      expect(stdout).toMatch(/^GET +\/ping +ping /m);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'calls an async createApp() factory',
    async () => {
      const { code, stdout } = await charter(['routes', 'app.ts'], fixture('factory'));
      expect(code).toBe(0);
      expect(stdout).toMatch(/^GET +\/health-status +status /m);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'an entry that exports no App exits 2 and lists its exports',
    async () => {
      const { code, stdout, stderr } = await charter(['routes'], fixture('no-app'));
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain('src/app.ts exports no Charter App');
      expect(stderr).toContain('its exports: answer, helper');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'an entry that throws while loading exits 1 with its error',
    async () => {
      const { code, stderr } = await charter(['routes'], fixture('broken'));
      expect(code).toBe(1);
      expect(stderr).toContain('cannot load src/app.ts: the database URL is not set');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'without an entry and no default file, exits 2 naming the defaults',
    async () => {
      const { code, stderr } = await charter(['routes'], tmp.path);
      expect(code).toBe(2);
      expect(stderr).toContain('none of src/app.ts, app.ts exists');
    },
    CLI_TIMEOUT_MS,
  );

  test.each([
    ['../named/app.ts', 'is outside the project'],
    [join(fixture('named'), 'app.ts'), 'is outside the project'],
    ['node_modules/charter/dist/index.js', 'is inside node_modules'],
    ['https://example.com/app.ts', 'is a URL'],
    ['file:///etc/passwd.ts', 'is a URL'],
    ['src/missing.ts', 'does not exist'],
    ['src', 'is not a module'],
    ['package.json', 'is not a module'],
  ])(
    'refuses the entry %s (exit 2)',
    async (entry, message) => {
      const { code, stdout, stderr } = await charter(['routes', entry]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(message);
      expect(stderr).toContain('Usage: charter routes');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'an unknown option exits 2 with a did-you-mean; extra arguments are refused',
    async () => {
      const unknown = await charter(['routes', '--jsn']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown option --jsn; did you mean --json?');
      const extra = await charter(['routes', 'src/app.ts', 'more.ts']);
      expect(extra.code).toBe(2);
      expect(extra.stderr).toContain('too many arguments: "more.ts"');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter openapi', () => {
  test(
    'prints the JSON document the App serves',
    async () => {
      const { code, stdout } = await charter(['openapi']);
      expect(code).toBe(0);
      const doc = JSON.parse(stdout);
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info).toMatchObject({ title: 'Todos', version: '1.2.0' });
      expect(doc.paths['/todos/{id}'].get.operationId).toBe('getTodo');
      expect(doc.components.schemas.Todo).toBeDefined();
      expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'generates the document of an App that does not mount one',
    async () => {
      const { code, stdout } = await charter(['openapi'], fixture('named'));
      expect(code).toBe(0);
      const doc = JSON.parse(stdout);
      expect(doc.info).toMatchObject({ title: 'Named', version: '0.1.0' });
      expect(doc.paths['/ping'].get.operationId).toBe('ping');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--yaml prints YAML',
    async () => {
      const { code, stdout } = await charter(['openapi', '--yaml']);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^openapi: '3\.1\.\d+'$/m);
      expect(stdout).toMatch(/operationId: "?getTodo"?/);
      expect(stdout.trimStart().startsWith('{')).toBe(false);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--out writes the file (creating its folder) and says where on stderr',
    async () => {
      const out = join(tmp.path, 'docs', 'openapi.json');
      const { code, stdout, stderr } = await charter(['openapi', `--out=${out}`]);
      expect(code).toBe(0);
      expect(stdout).toBe('');
      expect(stderr).toBe(`wrote ${out}\n`);
      const printed = await charter(['openapi']);
      expect(readFileSync(out, 'utf8')).toBe(printed.stdout);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--out refuses a directory and needs a value (exit 2)',
    async () => {
      const dir = await charter(['openapi', '--out', tmp.path]);
      expect(dir.code).toBe(2);
      expect(dir.stderr).toContain('is a directory');
      const missing = await charter(['openapi', '--out']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--out needs a value');
      const boolean = await charter(['openapi', '--yaml=no']);
      expect(boolean.code).toBe(2);
      expect(boolean.stderr).toContain('--yaml takes no value');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('an app whose schema cannot describe itself', () => {
  test(
    'openapi and ai exit 1 naming the route; check reports schema-not-describable',
    async () => {
      const cwd = fixture('undescribable');
      for (const command of ['openapi', 'ai']) {
        const { code, stdout, stderr } = await charter([command], cwd);
        expect(code).toBe(1);
        expect(stdout).toBe('');
        expect(stderr).toStartWith(
          `charter ${command}: OpenAPIError: Route POST /things: request body: a hand-made schema`,
        );
      }
      const check = await charter(['check'], cwd);
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('POST /things  [schema-not-describable]');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter check', () => {
  test(
    'a clean contract exits 0',
    async () => {
      const { code, stdout } = await charter(['check']);
      expect(code).toBe(0);
      expect(stdout).toBe('ok: 6 routes checked, no contract issue\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'contract issues are listed and exit 1',
    async () => {
      const { code, stdout } = await charter(['check'], fixture('issues'));
      expect(code).toBe(1);
      expect(stdout).toContain('2 contract issues in 2 routes:');
      expect(stdout).toContain('GET /items  [missing-operation-id]');
      expect(stdout).toContain('GET /items/:id  [invalid-example] example "wrong"');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--json prints the report',
    async () => {
      const { code, stdout } = await charter(['check', '--json'], fixture('issues'));
      expect(code).toBe(1);
      const report = JSON.parse(stdout);
      expect(report.ok).toBe(false);
      expect(report.checked).toBe(2);
      expect(report.issues.map((i: { code: string }) => i.code).sort()).toEqual([
        'invalid-example',
        'missing-operation-id',
      ]);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter check --fuzz', () => {
  test(
    'finds what the static checks cannot: a crash on generated input (exit 1)',
    async () => {
      const plain = await charter(['check'], fixture('fuzzed'));
      expect(plain.code).toBe(0);
      const { code, stdout } = await charter(
        ['check', '--fuzz', '--requests', '20', '--seed', '5'],
        fixture('fuzzed'),
      );
      expect(code).toBe(1);
      expect(stdout).toContain('GET /echo  [undeclared-status] answered 500');
      expect(stdout).toMatch(
        /^fuzz: \d+ requests to 1 operations \(seed 5\), [1-9]\d* findings?, 0 warnings$/m,
      );
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'a clean app passes the fuzzer; --json carries its report',
    async () => {
      const { code, stdout } = await charter(['check', '--fuzz', '--requests=5', '--json']);
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.ok).toBe(true);
      expect(report.fuzz).toMatchObject({ seed: 1, routes: 3, findings: [] });
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'fuzz options need --fuzz and whole numbers in range (exit 2)',
    async () => {
      const alone = await charter(['check', '--seed', '3']);
      expect(alone.code).toBe(2);
      expect(alone.stderr).toContain('--seed needs --fuzz');
      const bad = await charter(['check', '--fuzz', '--requests', '0']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--requests must be a whole number from 1 to 10000; got "0"');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter doctor', () => {
  test(
    'an app that passes the production guards exits 0',
    async () => {
      const { code, stdout } = await charter(['doctor']);
      expect(code).toBe(0);
      expect(stdout).toBe('ok: no issue found with NODE_ENV=production\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'an error issue (CSRF) exits 1 and lists warnings too',
    async () => {
      const { code, stdout } = await charter(['doctor'], fixture('insecure'));
      expect(code).toBe(1);
      expect(stdout).toContain('1 error, 1 warning with NODE_ENV=production:');
      expect(stdout).toMatch(/error +\[csrf-missing\] POST \/profile changes state/);
      expect(stdout).toMatch(/warning \[proxy-posture-missing\]/);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'warnings alone exit 0, and 1 with --strict',
    async () => {
      const plain = await charter(['doctor'], fixture('warn'));
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain('0 errors, 1 warning');
      const strict = await charter(['doctor', '--strict'], fixture('warn'));
      expect(strict.code).toBe(1);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'loads the entry with NODE_ENV=production: an option refused there exits 1',
    async () => {
      // The same entry loads in development (routes works), so the refusal comes from production mode.
      expect((await charter(['routes'], fixture('production-only'))).code).toBe(0);
      const { code, stderr } = await charter(['doctor'], fixture('production-only'));
      expect(code).toBe(1);
      expect(stderr).toContain('acknowledgeInsecureDefaults');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--json prints the findings',
    async () => {
      const { code, stdout } = await charter(['doctor', '--json'], fixture('insecure'));
      expect(code).toBe(1);
      const report = JSON.parse(stdout);
      expect(report).toMatchObject({ ok: false, errors: 1, warnings: 1 });
      expect(report.issues.map((i: { code: string }) => i.code)).toEqual([
        'csrf-missing',
        'proxy-posture-missing',
      ]);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter diff', () => {
  const openapi = fixture('openapi');

  test(
    'compatible changes exit 0 and are listed',
    async () => {
      const { code, stdout } = await charter(['diff', 'v1.json', 'v2-compatible.json'], openapi);
      expect(code).toBe(0);
      expect(stdout).toStartWith('No breaking change.\n6 other changes:\n');
      expect(stdout).toContain('+ GET /users: operation added [operation-added]');
      expect(stdout).toContain('+ GET /users/{userId} query.expand: new optional parameter');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'breaking changes exit 1, one readable line each',
    async () => {
      const { code, stdout } = await charter(['diff', 'v1.json', 'v2-breaking.json'], openapi);
      expect(code).toBe(1);
      expect(stdout).toStartWith('13 breaking changes:\n');
      for (const line of [
        '- DELETE /users/{id}: operation removed [operation-removed]',
        '- GET /users/{id} query.tenant: new required parameter [required-parameter-added]',
        '- GET /users/{id} response 404: status 404 is no longer declared [response-status-removed]',
        '- GET /users/{id} response 200 (application/json).email: no longer returned [property-removed]',
        '- POST /users request body (application/json).password: new required field [required-property-added]',
        '- POST /users request body (application/json).email: type changed from string to integer [type-changed]',
        '- POST /users request body (application/json).name: maxLength lowered from 100 to 50 [constraint-narrowed]',
        '- POST /users security: now requires authentication [authentication-required]',
      ]) {
        expect(stdout).toContain(line);
      }
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--json prints both lists',
    async () => {
      const { code, stdout } = await charter(['diff', '--json', 'v1.json', 'v2-breaking.json'], openapi);
      expect(code).toBe(1);
      const result = JSON.parse(stdout);
      expect(result.breaking).toHaveLength(13);
      expect(result.nonBreaking).toEqual([]);
    },
    CLI_TIMEOUT_MS,
  );

  test.each([
    [['v1.json'], 'diff needs two files'],
    [['v1.json', 'missing.json'], '"missing.json" does not exist'],
    [['v1.json', brokenJson], 'broken.json" is not JSON'],
    [['v1.json', 'v1.yaml'], 'YAML is not read'],
    [['v1.json', 'not-openapi.json'], 'the new document is not an OpenAPI 3 document'],
    [['https://example.com/a.json', 'v1.json'], 'is a URL'],
    [['v1.json', '.'], 'is not a file'],
  ])(
    'refuses %p (exit 2)',
    async (args, message) => {
      const { code, stdout, stderr } = await charter(['diff', ...args], openapi);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(message);
    },
    CLI_TIMEOUT_MS,
  );
});

describe('charter ai', () => {
  test(
    'prints the Markdown catalogue: operations, auth, schemas',
    async () => {
      const { code, stdout, stderr } = await charter(['ai']);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toStartWith('# Todos 1.2.0\n');
      expect(stdout).toContain('## Auth\n\n- bearerAuth: HTTP bearer\n');
      expect(stdout).toContain(
        '### GET /todos/{id} (getTodo)\n- auth: none\n- path: id: integer\n- 200: Todo\n- errors (problem+json): 400, 404, 408, 422, 431\n',
      );
      expect(stdout).toContain(
        '### POST /todos (createTodo)\n- auth: bearerAuth\n- body: CreateTodoBody (application/json,',
      );
      expect(stdout).toContain('- Todo: { ');
      expect(stdout).toMatch(
        /- CreateTodoBody: \{ title: string \(maxLength 200, minLength 1\)|- CreateTodoBody: \{ title: string/,
      );
    },
    CLI_TIMEOUT_MS,
  );

  test(
    '--out writes the catalogue',
    async () => {
      const out = join(tmp.path, 'API.md');
      const { code, stdout } = await charter(['ai', '--out', out]);
      expect(code).toBe(0);
      expect(stdout).toBe('');
      expect(readFileSync(out, 'utf8')).toStartWith('# Todos 1.2.0\n');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'a refused entry exits 2',
    async () => {
      const { code, stderr } = await charter(['ai', '../basic/src/app.ts'], fixture('named'));
      expect(code).toBe(2);
      expect(stderr).toContain('is outside the project');
    },
    CLI_TIMEOUT_MS,
  );
});

describe('entry guards on disk', () => {
  test(
    'a symbolic link pointing out of the project is refused',
    async () => {
      const project = join(tmp.path, 'linked');
      mkdirSync(project, { recursive: true });
      const { symlinkSync } = await import('node:fs');
      symlinkSync(join(basic, 'src/app.ts'), join(project, 'app.ts'));
      const { code, stderr } = await charter(['routes'], project);
      expect(code).toBe(2);
      expect(stderr).toContain('is a link to');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'a control character in the entry path is refused',
    async () => {
      writeFileSync(join(tmp.path, 'x.ts'), 'export {};\n');
      const { code, stderr } = await charter(['routes', 'x\u001b[2J.ts'], tmp.path);
      expect(code).toBe(2);
      expect(stderr).toContain('contains control characters');
      expect(stderr).not.toContain('\u001b');
    },
    CLI_TIMEOUT_MS,
  );
});
