/**
 * The packed package, as a person installs it: `bun run pack` (scripts/pack.ts, into a temp folder
 * here), then the charter tarball installed into a fresh Bun project (`bun install`) and a fresh Node 24
 * project (`npm install --offline`): both type-check strictly (skipLibCheck false, no DOM lib), run a
 * small app that answers over HTTP, and run the `charter` bin. Nothing comes from the network: the
 * tarball has no dependencies, and zod (for the sample app) and the runtimes' type packages are linked
 * from this repository's node_modules. Needs `bun run build` first (the test script does it) and Node 24
 * (NODE24_PATH, as the Node adapter tests).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packAll, packPackage, publishedManifest, ROOT } from '../../scripts/pack.ts';
import { linkFromRepo, NODE24, NPM_CLI, run, startServer, TSC } from './support.ts';

// Installs, type-checks and runtimes start here: on a loaded 2-core CI machine a step can take a minute.
setDefaultTimeout(120_000);

const FIXTURE = join(import.meta.dir, 'fixtures', 'installed');
/** A file importing every subpath of the installed package (but `skip`), so tsc checks all their declarations. */
function writeEverySubpath(project: string, skip: readonly string[]): string[] {
  const manifest = JSON.parse(
    readFileSync(join(project, 'node_modules', 'charter', 'package.json'), 'utf8'),
  ) as {
    exports: Record<string, unknown>;
  };
  const specifiers = Object.keys(manifest.exports)
    .filter((key) => key !== './package.json' && !skip.includes(key))
    .map((key) => `charter${key.slice(1)}`);
  const lines = specifiers.map((specifier, i) => `import type * as m${i} from '${specifier}';`);
  lines.push(`export type Everything = [${specifiers.map((_, i) => `typeof m${i}`).join(', ')}];`);
  writeFileSync(join(project, 'every-subpath.ts'), `${lines.join('\n')}\n`);
  return specifiers;
}

async function expectAppAnswers(url: string): Promise<void> {
  const hello = await fetch(`${url}/hello/Ada`);
  expect(hello.status).toBe(200);
  expect(hello.headers.get('content-type')).toStartWith('application/json');
  expect(hello.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await hello.json()).toEqual({ greeting: 'Hello, Ada!' });
  const tooLong = await fetch(`${url}/hello/${'x'.repeat(21)}`);
  expect(tooLong.status).toBe(422);
  expect(tooLong.headers.get('content-type')).toStartWith('application/problem+json');
  expect(((await tooLong.json()) as { detail: string }).detail).toContain('params.name');
  const document = await fetch(`${url}/openapi.json`);
  expect(document.status).toBe(200);
  expect(((await document.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty([
    '/hello/{name}',
  ]);
}

const work = mkdtempSync(join(tmpdir(), 'charter-pack-test-'));
let tarballs: { charter: string; createCharter: string };

beforeAll(async () => {
  tarballs = await packAll(false, join(work, 'tarballs'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bun run pack', () => {
  test('writes charter-<version>.tgz and create-charter-<version>.tgz', () => {
    const version = (
      JSON.parse(readFileSync(join(ROOT, 'packages', 'charter', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(tarballs.charter).toEndWith(`charter-${version}.tgz`);
    expect(tarballs.createCharter).toEndWith(`create-charter-${version}.tgz`);
  });

  test('the charter tarball carries README, LICENSE, metadata, no devDependencies and no workspace: range', async () => {
    const listing = await run(['tar', 'tzf', tarballs.charter], work);
    const files = listing.stdout.split('\n');
    expect(files).toContain('package/README.md');
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files.some((f) => f.startsWith('package/src/'))).toBe(false);
    const text = (await run(['tar', 'xzf', tarballs.charter, '-O', 'package/package.json'], work)).stdout;
    const manifest = JSON.parse(text) as Record<string, unknown>;
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringContaining('github.com') });
    expect(manifest.homepage).toBe('https://charter.dev');
    expect(manifest.keywords).toContain('openapi');
    expect(manifest.engines).toEqual({ node: '>=24', bun: '>=1.3' });
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(manifest).not.toHaveProperty('dependencies');
    expect(text).not.toContain('workspace:');
    const license = (await run(['tar', 'xzf', tarballs.charter, '-O', 'package/LICENSE'], work)).stdout;
    expect(license).toContain('MIT License');
    expect(license).toContain('Copyright (c) 2026 The Charter authors');
  });

  test('the create-charter tarball carries its bin, its templates and no dependency', async () => {
    const files = (await run(['tar', 'tzf', tarballs.createCharter], work)).stdout.split('\n');
    expect(files).toContain('package/dist/create-charter.js');
    expect(files).toContain('package/templates/bun/package.json');
    expect(files).toContain('package/templates/node/package.json');
    expect(files).toContain('package/LICENSE');
    const manifest = JSON.parse(
      (await run(['tar', 'xzf', tarballs.createCharter, '-O', 'package/package.json'], work)).stdout,
    ) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ 'create-charter': './dist/create-charter.js' });
    expect(manifest).not.toHaveProperty('dependencies');
    expect(manifest).not.toHaveProperty('devDependencies');
  });
});

describe('scripts/pack.ts refuses to pack a broken package', () => {
  test('a manifest whose exports name a file the package lacks (a build missing or half done)', async () => {
    const dir = join(work, 'broken-package');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.js'), 'export {};\n');
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'broken',
        version: '1.0.0',
        files: ['dist'],
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
    );
    await expect(packPackage(dir, join(work, 'broken-out'))).rejects.toThrow(
      'broken: the manifest points at files the package would not contain (run bun run build first?): dist/index.d.ts',
    );
    expect(existsSync(join(work, 'broken-out', 'broken-1.0.0.tgz'))).toBe(false);
  });

  test('a workspace: range anywhere in the published manifest', () => {
    expect(() =>
      publishedManifest({
        name: 'leaky',
        version: '1.0.0',
        dependencies: { '@charter/core': 'workspace:*' },
      }),
    ).toThrow('leaky: a workspace: range would be published (@charter/core: workspace:*)');
    expect(
      publishedManifest({
        name: 'fine',
        version: '1.0.0',
        devDependencies: { '@charter/core': 'workspace:*' },
      }),
    ).toEqual({ name: 'fine', version: '1.0.0' });
  });
});

describe('installed into a fresh Bun project', () => {
  const project = join(work, 'bun-app');
  beforeAll(async () => {
    cpSync(FIXTURE, project, { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'bun-app',
        type: 'module',
        private: true,
        dependencies: { charter: `file:${tarballs.charter}` },
      }),
    );
    const install = await run([process.execPath, 'install'], project);
    if (install.code !== 0) throw new Error(`bun install failed:\n${install.stdout}${install.stderr}`);
    // Linked to their real folders, their own dependencies (bun-types, undici-types) resolve beside them.
    for (const name of ['zod', '@types/bun', '@types/node']) linkFromRepo(project, name);
    cpSync(join(project, 'tsconfig.bun.json'), join(project, 'tsconfig.json'));
  }, 120_000);

  test('bun install put the package in node_modules with its bin', () => {
    expect(existsSync(join(project, 'node_modules', 'charter', 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', '.bin', 'charter'))).toBe(true);
  });

  test('every subpath type-checks with skipLibCheck false and no DOM lib (bun init settings)', async () => {
    const specifiers = writeEverySubpath(project, []);
    expect(specifiers).toContain('charter/bun');
    const result = await run([TSC, '-p', 'tsconfig.json', '--pretty', 'false'], project);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.code).toBe(0);
  });

  test('a small app runs on charter/bun and answers', async () => {
    const server = await startServer([process.execPath, 'server-bun.ts'], project);
    try {
      await expectAppAnswers(server.url);
    } finally {
      await server.stop();
    }
  });

  test('the charter bin runs under Bun: charter check and charter routes', async () => {
    const check = await run([process.execPath, '--bun', 'run', 'charter', 'check', 'app.ts'], project);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('no contract issue');
    const routes = await run(
      [process.execPath, '--bun', 'run', 'charter', 'routes', 'app.ts', '--json'],
      project,
    );
    expect(routes.code).toBe(0);
    expect(routes.stdout).toContain('/hello/:name');
  });
});

describe('installed into a fresh Node 24 project', () => {
  const project = join(work, 'node-app');
  const env = { PATH: `${dirname(NODE24)}:${process.env.PATH ?? ''}` };
  beforeAll(async () => {
    if (!existsSync(NODE24)) {
      throw new Error(
        `Node 24 is needed at ${NODE24}: npm install --prefix /opt/charter-node24 node@24, or set NODE24_PATH`,
      );
    }
    cpSync(FIXTURE, project, { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'node-app',
        type: 'module',
        private: true,
        dependencies: { charter: `file:${tarballs.charter}` },
      }),
    );
    const install = await run(
      [NODE24, NPM_CLI, 'install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      project,
      env,
    );
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.stdout}${install.stderr}`);
    for (const name of ['zod', '@types/node']) linkFromRepo(project, name);
    cpSync(join(project, 'tsconfig.node.json'), join(project, 'tsconfig.json'));
  }, 120_000);

  test('npm install put the package in node_modules with its bin', () => {
    expect(existsSync(join(project, 'node_modules', 'charter', 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', '.bin', 'charter'))).toBe(true);
  });

  test('every subpath but charter/bun type-checks under NodeNext, lib ES2023, types node, skipLibCheck false', async () => {
    const specifiers = writeEverySubpath(project, ['./bun']);
    expect(specifiers).toContain('charter/node');
    const result = await run([TSC, '-p', 'tsconfig.json', '--pretty', 'false'], project);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.code).toBe(0);
  });

  test('a small app runs on charter/node under Node 24 and answers', async () => {
    const server = await startServer([NODE24, 'server-node.ts'], project);
    try {
      await expectAppAnswers(server.url);
    } finally {
      await server.stop();
    }
  });

  test('the charter bin runs under Node 24: charter check', async () => {
    const check = await run(
      [join(project, 'node_modules', '.bin', 'charter'), 'check', 'app.ts'],
      project,
      env,
    );
    expect(`${check.stdout}${check.stderr}`).toContain('no contract issue');
    expect(check.code).toBe(0);
  });
});
