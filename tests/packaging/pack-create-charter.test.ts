/**
 * create-charter from its packed tarball, as a person runs it: `bunx create-charter` for the bun
 * template, `npm exec create-charter` under Node 24 for the node template, each given the packed charter
 * tarball (`--charter file:...`). Then, in the new project: install (offline: the tarball has no
 * dependencies; zod and the runtimes' type packages are linked from this repository), the template's own
 * test script (`charter check`, then `bun test` / `node --test`), a strict type-check, and the server
 * started and asked for a route. Needs `bun run build` first and Node 24 (NODE24_PATH).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { packAll } from '../../scripts/pack.ts';
import { denoBinary } from '../support/deno-binary.ts';
import { linkFromRepo, NODE24, NPM_CLI, type Ran, run, startServer, TSC } from './support.ts';

// Installs, type-checks and runtimes start here: on a loaded 2-core CI machine a step can take a minute.
setDefaultTimeout(120_000);

const NODE24_ENV = { PATH: `${dirname(NODE24)}:${process.env.PATH ?? ''}` };
// The binary itself: the .bin wrapper is a Node script whose deno child would outlive a kill.
const DENO = denoBinary();

/**
 * What `bun install` / `npm install` would fetch from the registry is linked from this repository
 * instead: the manifest keeps only charter (the tarball) for the install, then gets its dependencies back.
 */
async function installOffline(
  project: string,
  install: string[],
  env: Record<string, string>,
  types: string,
): Promise<void> {
  const path = join(project, 'package.json');
  const original = readFileSync(path, 'utf8');
  const manifest = JSON.parse(original) as {
    dependencies: Record<string, string>;
    devDependencies?: unknown;
  };
  const offline = {
    ...manifest,
    dependencies: { charter: manifest.dependencies.charter },
    devDependencies: {},
  };
  writeFileSync(path, JSON.stringify(offline));
  const installed = await run(install, project, env);
  writeFileSync(path, original);
  if (installed.code !== 0) throw new Error(`${install.join(' ')} failed:\n${installed.out}`);
  for (const name of ['zod', types]) linkFromRepo(project, name);
}

/** Starts `cmd`, waits for the line with its URL, requests a route, stops it. */
async function startAndRequest(
  cmd: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Response> {
  const server = await startServer(cmd, cwd, { PORT: '0', ...env });
  try {
    return await fetch(`${server.url}/hello/world`);
  } finally {
    await server.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'create-charter-test-'));
let tarballs: { charter: string; createCharter: string };

beforeAll(async () => {
  tarballs = await packAll(false, join(work, 'tarballs'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bunx create-charter <folder> (bun template)', () => {
  const project = join(work, 'bun-demo');
  let created: Ran;
  beforeAll(async () => {
    created = await run(
      [
        process.execPath,
        'x',
        '--package',
        `file:${tarballs.createCharter}`,
        'create-charter',
        'bun-demo',
        '--charter',
        `file:${tarballs.charter}`,
      ],
      work,
    );
    if (created.code === 0) await installOffline(project, [process.execPath, 'install'], {}, '@types/bun');
  }, 120_000);

  test('creates the project and prints the next commands', () => {
    expect(created.code).toBe(0);
    expect(created.out).toContain('Created bun-demo from the bun template');
    expect(created.out).toContain('cd bun-demo');
    for (const file of [
      '.gitignore',
      'Dockerfile',
      'README.md',
      'tsconfig.json',
      'src/app.ts',
      'src/server.ts',
      'test/app.test.ts',
    ]) {
      expect(existsSync(join(project, file))).toBe(true);
    }
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('bun run test');
  });

  test('its test script runs charter check, then bun test, and passes', async () => {
    const result = await run([process.execPath, 'run', 'test'], project);
    expect(result.out).toContain('no contract issue');
    expect(result.out).toContain('3 pass');
    expect(result.out).toContain('0 fail');
    expect(result.code).toBe(0);
  });

  test('bun test alone passes too (the command the issue names)', async () => {
    const result = await run([process.execPath, 'test'], project);
    expect(result.code).toBe(0);
    expect(result.out).toContain('3 pass');
  });

  test('it type-checks strictly with its own tsconfig', async () => {
    await expectTypeChecks(project);
  });

  test('bun src/server.ts serves the app', async () => {
    const response = await startAndRequest([process.execPath, 'src/server.ts'], project);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
  });
});

describe('npm exec create-charter <folder> --template node (Node 24)', () => {
  const project = join(work, 'node-demo');
  let created: Ran;
  beforeAll(async () => {
    if (!existsSync(NODE24)) throw new Error(`Node 24 is needed at ${NODE24} (set NODE24_PATH)`);
    created = await run(
      [
        NODE24,
        NPM_CLI,
        'exec',
        '--offline',
        '--yes',
        '--package',
        tarballs.createCharter,
        '--',
        'create-charter',
        'node-demo',
        '--template',
        'node',
        '--charter',
        `file:${tarballs.charter}`,
      ],
      work,
      NODE24_ENV,
    );
    if (created.code === 0) {
      await installOffline(
        project,
        [NODE24, NPM_CLI, 'install', '--offline', '--no-audit', '--no-fund'],
        NODE24_ENV,
        '@types/node',
      );
    }
  }, 120_000);

  test('creates the project and prints the npm commands', () => {
    expect(created.code).toBe(0);
    expect(created.out).toContain('Created node-demo from the node template');
    expect(created.out).toContain('npm test');
    expect(existsSync(join(project, 'Dockerfile'))).toBe(true);
  });

  test('npm test runs charter check, then node --test, and passes', async () => {
    const result = await run([NODE24, NPM_CLI, 'test'], project, NODE24_ENV);
    expect(result.out).toContain('no contract issue');
    expect(result.out).toMatch(/\bpass 3\b/);
    expect(result.out).toMatch(/\bfail 0\b/);
    expect(result.code).toBe(0);
  });

  test('it type-checks strictly with its own tsconfig (NodeNext)', async () => {
    await expectTypeChecks(project);
  });

  test('node src/server.ts serves the app under Node 24', async () => {
    const response = await startAndRequest([NODE24, 'src/server.ts'], project);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
  });
});

/** The packed bin, unpacked once and run by Node 24 in the work folder. */
async function bin(args: string[]): Promise<Ran> {
  const dir = join(work, 'bin');
  if (!existsSync(dir)) {
    mkdirSync(dir);
    await run(['tar', 'xzf', tarballs.createCharter, '-C', dir], work);
  }
  return run([NODE24, join(dir, 'package', 'dist', 'create-charter.js'), ...args], work);
}

/**
 * Registers a `beforeAll` that creates `folder` from `template` with the packed bin and installs it
 * offline with bun install (`deno install` links a file: tarball instead of unpacking it, so the deno
 * template's tarball goes in with bun install too). `created` is set once it ran.
 */
function createWithBin(folder: string, template: string, types = '@types/bun') {
  const state = { project: join(work, folder), created: undefined as unknown as Ran };
  beforeAll(async () => {
    state.created = await bin([folder, '--template', template, '--charter', `file:${tarballs.charter}`]);
    if (state.created.code === 0) {
      await installOffline(state.project, [process.execPath, 'install'], {}, types);
    }
  }, 120_000);
  return state;
}

/** `tsc` with the project's own (strict) tsconfig reports nothing. */
async function expectTypeChecks(project: string): Promise<void> {
  const result = await run([TSC, '-p', 'tsconfig.json', '--pretty', 'false'], project);
  expect(result.out).toBe('');
  expect(result.code).toBe(0);
}

/** The project's test script (charter check, then bun test) passes `passes` tests, and it type-checks. */
async function expectTestScriptAndTypes(project: string, passes: number): Promise<void> {
  const result = await run([process.execPath, 'run', 'test'], project);
  expect(result.out).toContain('no contract issue');
  expect(result.out).toContain(`${passes} pass`);
  expect(result.code).toBe(0);
  await expectTypeChecks(project);
}

describe('create-charter <folder> --template deno', () => {
  const demo = createWithBin('deno-demo', 'deno', '@types/node');
  const project = demo.project;

  test('creates the project and prints the deno commands', () => {
    expect(demo.created.code).toBe(0);
    expect(demo.created.out).toContain('deno task test');
    for (const file of ['deno.json', 'Dockerfile', 'README.md', 'src/main.ts', 'test/app.test.ts']) {
      expect(existsSync(join(project, file))).toBe(true);
    }
  });

  test('deno task test runs charter check under Deno, then deno test (type-checked), and passes', async () => {
    const result = await run([DENO, 'task', 'test'], project);
    expect(result.out).toContain('no contract issue');
    expect(result.out).toContain('3 passed');
    expect(result.code).toBe(0);
  });

  test('deno task start serves the app', async () => {
    const response = await startAndRequest([DENO, 'task', 'start'], project);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
  });
});

describe('create-charter <folder> --template cloudflare', () => {
  const demo = createWithBin('worker-demo', 'cloudflare');
  const project = demo.project;

  test('creates the project with its Wrangler settings', () => {
    expect(demo.created.code).toBe(0);
    expect(readFileSync(join(project, 'wrangler.toml'), 'utf8')).toContain('name = "worker-demo"');
  });

  test('its test script (charter check, bun test) passes and it type-checks', async () => {
    await expectTestScriptAndTypes(project, 5);
  });

  test('the Worker, bundled from the project, answers in workerd (miniflare)', async () => {
    const built = await Bun.build({
      entrypoints: [join(project, 'src', 'worker.ts')],
      target: 'browser',
      format: 'esm',
    });
    expect(built.success).toBe(true);
    const mf = new Miniflare({
      modules: true,
      script: await (built.outputs[0] as Blob).text(),
      compatibilityDate: '2026-07-01',
    });
    try {
      const response = await mf.dispatchFetch('https://example.com/hello/world');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ greeting: 'Hello, world!' });
    } finally {
      await mf.dispose();
    }
  });
});

describe('create-charter <folder> --template vercel', () => {
  const demo = createWithBin('vercel-demo', 'vercel');
  const project = demo.project;

  test('creates the project with its catch-all function', () => {
    expect(demo.created.code).toBe(0);
    expect(existsSync(join(project, 'api', '[[...route]].ts'))).toBe(true);
  });

  test('its test script (charter check, bun test) passes and it type-checks', async () => {
    await expectTestScriptAndTypes(project, 5);
  });
});

describe('create-charter <folder> --template lambda', () => {
  const demo = createWithBin('lambda-demo', 'lambda');
  const project = demo.project;

  test('its test script (charter check, bun test) passes and it type-checks', async () => {
    expect(demo.created.code).toBe(0);
    await expectTestScriptAndTypes(project, 5);
  });

  test('bun run build bundles a handler that Node 24 runs with an HTTP API event', async () => {
    const build = await run([process.execPath, 'run', 'build'], project);
    expect(build.code).toBe(0);
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/hello/world',
      rawQueryString: '',
      headers: { host: 'api.example.com' },
      requestContext: {
        domainName: 'api.example.com',
        http: {
          method: 'GET',
          path: '/hello/world',
          protocol: 'HTTP/1.1',
          sourceIp: '192.0.2.1',
          userAgent: 'test',
        },
        requestId: 'r1',
        routeKey: '$default',
        stage: '$default',
        timeEpoch: 0,
      },
      isBase64Encoded: false,
    };
    const script = `const { handler } = await import('./dist/index.mjs'); console.log(JSON.stringify(await handler(${JSON.stringify(event)})));`;
    const ran = await run([NODE24, '--input-type=module', '-e', script], project);
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.out.trim().split('\n').at(-1) as string) as {
      statusCode: number;
      body: string;
    };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ greeting: 'Hello, world!' });
  });
});

describe('the packed bin refuses', () => {
  test('an existing non-empty folder, a bad name, a path outside, an unknown template', async () => {
    mkdirSync(join(work, 'taken'));
    writeFileSync(join(work, 'taken', 'file'), 'x');
    const taken = await bin(['taken']);
    expect(taken.code).toBe(1);
    expect(taken.out).toContain('taken exists and is not empty');
    const bad = await bin(['Not_A Name']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('cannot be a package name');
    const escape = await bin(['../outside']);
    expect(escape.code).toBe(1);
    expect(escape.out).toContain('outside the current directory');
    const unknown = await bin(['x', '--template', 'rails']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('Unknown template "rails"');
    expect(existsSync(join(work, 'x'))).toBe(false);
  });

  test('--help says which templates exist', async () => {
    const help = await bin(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('serves with charter/bun');
    expect(help.out).toContain('serves with charter/node');
    for (const template of ['deno', 'cloudflare', 'vercel', 'lambda'])
      expect(help.out).toContain(`serves with charter/${template}`);
    expect(help.out).not.toContain('Not in this version yet');
  });
});
