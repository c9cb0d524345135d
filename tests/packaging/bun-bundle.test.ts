/**
 * An app that imports charter, bundled by Bun's own bundler in every form a user reaches for: the bundler
 * cannot read the `bun` build's bytecode libs, so the entry files hand it the ESM build instead
 * (scripts/build-bun-bytecode.ts, entryFacade). Each bundle runs with the project's node_modules moved
 * away, so it can only work if it holds charter itself, and it serves a real request through
 * `charter/bun`. Run after `bun run build`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHARTER_DIR, DIST } from '../../scripts/build.ts';

const APP = `
import { App } from 'charter';
import { serve } from 'charter/bun';
import { createJwtSigner } from 'charter/jwt';

// A Standard Schema by hand, so the project needs no validator.
const greeting = { '~standard': { version: 1, vendor: 'test', validate: (value) =>
  typeof value?.greeting === 'string' ? { value } : { issues: [{ message: 'no greeting' }] } } };
const app = new App({ logger: false });
app.get('/hello/:name', { responses: { 200: { body: greeting } } }, (ctx) => ({
  status: 200,
  body: { greeting: 'hi ' + ctx.params.name },
}));
// No top-level await: the CommonJS bundle and --bytecode (CommonJS) could not hold it.
async function main() {
const server = serve(app, { port: 0, signals: false, banner: false });
await server.ready;
const response = await fetch('http://127.0.0.1:' + server.port + '/hello/ada');
console.log(JSON.stringify({
  status: response.status,
  type: response.headers.get('content-type'),
  body: await response.json(),
  missing: (await fetch('http://127.0.0.1:' + server.port + '/nope')).status,
  jwt: typeof createJwtSigner,
}));
await server.close();
}
main();
`;

const EXPECTED = {
  status: 200,
  type: 'application/json',
  body: { greeting: 'hi ada' },
  missing: 404,
  jwt: 'function',
};

let project = '';

beforeAll(() => {
  if (!existsSync(join(DIST, 'bun', 'index.js'))) {
    throw new Error('packages/charter/dist/bun is missing: run `bun run build` before the packaging tests');
  }
  project = mkdtempSync(join(tmpdir(), 'charter-bundle-'));
  const charter = join(project, 'node_modules', 'charter');
  mkdirSync(charter, { recursive: true });
  cpSync(join(CHARTER_DIR, 'package.json'), join(charter, 'package.json'));
  cpSync(DIST, join(charter, 'dist'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(project, 'app.js'), APP);
});

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

/** Runs `command` in the project; with `alone`, node_modules is moved away for the run. */
function run(command: string[], alone = false): { code: number | null; stdout: string; stderr: string } {
  const modules = join(project, 'node_modules');
  const away = join(project, 'node_modules.away');
  if (alone) renameSync(modules, away);
  try {
    const result = Bun.spawnSync(command, { cwd: project, env: { ...process.env, NO_COLOR: '1' } });
    return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  } finally {
    if (alone) renameSync(away, modules);
  }
}

function expectServed(result: { code: number | null; stdout: string; stderr: string }): void {
  expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
    code: 0,
    stderr: '',
  });
  expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '')).toEqual(EXPECTED);
}

describe('an app importing charter', () => {
  test('runs unbundled on the bun build (the runtime loads the bytecode libs)', () => {
    const result = run([process.execPath, 'app.js']);
    expectServed(result);
    const resolved = run([process.execPath, '-e', "console.log(Bun.resolveSync('charter', process.cwd()))"]);
    expect(resolved.stdout.trim()).toEndWith(join('charter', 'dist', 'bun', 'index.js'));
  });

  // [what, bun build flags, the file to run]; each writes into its own folder (--bytecode writes two files).
  const bundles: Array<[string, string[], string]> = [
    ['ESM', ['--target=bun'], 'app.js'],
    ['ESM, minified', ['--target=bun', '--minify'], 'app.js'],
    ['CommonJS, minified', ['--target=bun', '--format=cjs', '--minify'], 'app.js'],
    ['CommonJS with its bytecode', ['--target=bun', '--bytecode'], 'app.js'],
    ['ESM from the ESM build (--conditions=module)', ['--target=bun', '--conditions=module'], 'app.js'],
  ];
  bundles.forEach(([what, flags, file], index) => {
    test(`bundled by bun build (${what}) runs without node_modules`, () => {
      const outdir = `out-${index}`;
      const built = run([process.execPath, 'build', 'app.js', ...flags, '--outdir', outdir]);
      expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: '' });
      expectServed(run([process.execPath, join(outdir, file)], true));
    });
  });

  test('--conditions=module bundles only what the app uses (the ESM build tree-shakes)', () => {
    const size = (flags: string[]): number => {
      const built = run([
        process.execPath,
        'build',
        'app.js',
        '--target=bun',
        '--minify',
        ...flags,
        '--outfile',
        'sized.js',
      ]);
      expect(built.code).toBe(0);
      return statSync(join(project, 'sized.js')).size;
    };
    const whole = size([]);
    const shaken = size(['--conditions=module']);
    expect(shaken).toBeLessThan(whole * 0.8);
  });

  for (const [what, flags] of [
    ['--compile', []],
    ['--compile --bytecode --minify', ['--bytecode', '--minify']],
  ] as const) {
    test(`compiled (${what}) runs without node_modules`, () => {
      const binary = join(project, `app-${flags.length}`);
      const built = run([process.execPath, 'build', 'app.js', '--compile', ...flags, '--outfile', binary]);
      expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: '' });
      expectServed(run([binary], true));
    }, 60_000);
  }
});
