import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './cli.ts';
import { availableTemplates, checkTarget, invalidPackageName, ScaffoldError, scaffold } from './scaffold.ts';

const TEMPLATES = join(import.meta.dir, '..', 'templates');
const work = mkdtempSync(join(tmpdir(), 'create-charter-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the command line in `cwd`, capturing what it prints. */
function cli(args: string[], cwd = work): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = main(
    args,
    cwd,
    (text) => {
      out += `${text}\n`;
    },
    (text) => {
      err += `${text}\n`;
    },
  );
  return { code, out, err };
}

describe('invalidPackageName', () => {
  test('accepts npm package names', () => {
    for (const name of ['my-app', 'app2', 'a.b_c~d', 'x']) expect(invalidPackageName(name)).toBeUndefined();
  });

  test('refuses what npm refuses, saying why', () => {
    expect(invalidPackageName('')).toBe('it is empty');
    expect(invalidPackageName('My-App')).toBe('it has capital letters');
    expect(invalidPackageName('.hidden')).toBe('it starts with . or _');
    expect(invalidPackageName('_private')).toBe('it starts with . or _');
    expect(invalidPackageName('node_modules')).toBe('node_modules is reserved');
    expect(invalidPackageName('a'.repeat(215))).toBe('it is longer than 214 characters');
    expect(invalidPackageName('my app')).toBe('only lowercase letters, digits, -, ., _ and ~ are allowed');
    expect(invalidPackageName('é')).toBe('only lowercase letters, digits, -, ., _ and ~ are allowed');
  });
});

describe('checkTarget', () => {
  test('a new folder, or an empty one, below the current directory', () => {
    expect(checkTarget('fresh', work)).toEqual({ dir: join(work, 'fresh'), name: 'fresh' });
    mkdirSync(join(work, 'empty'));
    expect(checkTarget('empty', work).name).toBe('empty');
    expect(checkTarget('apps/web', work)).toEqual({ dir: join(work, 'apps', 'web'), name: 'web' });
  });

  test('refuses an absolute path, an escape, the current directory itself and a non-empty folder', () => {
    expect(() => checkTarget('/tmp/x', work)).toThrow(ScaffoldError);
    expect(() => checkTarget('../x', work)).toThrow('is outside the current directory');
    expect(() => checkTarget('a/../../x', work)).toThrow('is outside the current directory');
    expect(() => checkTarget('.', work)).toThrow('is outside the current directory');
    mkdirSync(join(work, 'full'));
    writeFileSync(join(work, 'full', 'keep.txt'), 'mine');
    expect(() => checkTarget('full', work)).toThrow('full exists and is not empty');
    writeFileSync(join(work, 'a-file'), '');
    expect(() => checkTarget('a-file', work)).toThrow('a-file exists and is not a folder');
  });
});

describe('scaffold', () => {
  test('ships the bun and node templates', () => {
    expect(availableTemplates(TEMPLATES)).toEqual(expect.arrayContaining(['bun', 'node']));
  });

  test('copies a template with the name and charter version filled in, dotfiles renamed', () => {
    const result = scaffold({
      target: 'filled',
      template: 'bun',
      charterVersion: '^9.9.9',
      templatesDir: TEMPLATES,
      cwd: work,
    });
    expect(result.files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        '.dockerignore',
        'Dockerfile',
        'README.md',
        'package.json',
        'src/app.ts',
        'src/server.ts',
        'test/app.test.ts',
        'tsconfig.json',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(work, 'filled', 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(manifest.name).toBe('filled');
    expect(manifest.dependencies.charter).toBe('^9.9.9');
    expect(manifest.scripts.test).toContain('charter check');
    expect(readFileSync(join(work, 'filled', 'README.md'), 'utf8')).toStartWith('# filled\n');
    expect(readFileSync(join(work, 'filled', 'src', 'app.ts'), 'utf8')).not.toContain('{{');
  });

  test('refuses a template it does not ship', () => {
    expect(() =>
      scaffold({
        target: 'x',
        template: 'lambda',
        charterVersion: '^1',
        templatesDir: join(work, 'none'),
        cwd: work,
      }),
    ).toThrow('There is no "lambda" template here');
  });
});

describe('the command line', () => {
  test('--help lists the templates it ships and says which come later', () => {
    const { code, out } = cli(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('bun create charter <folder>');
    expect(out).toMatch(/ {2}bun {9}serves with charter\/bun/);
    expect(out).toMatch(/ {2}node {8}serves with charter\/node/);
  });

  test('creates the folder and prints the next commands', () => {
    const { code, out, err } = cli(['made', '--template', 'node']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('Created made from the node template');
    expect(out).toContain('npm install');
    expect(JSON.parse(readFileSync(join(work, 'made', 'package.json'), 'utf8')).scripts.start).toBe(
      'node src/server.ts',
    );
  });

  test('--charter sets the dependency written to package.json', () => {
    expect(cli(['pinned', '--charter', 'file:../charter-0.1.0.tgz']).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, 'pinned', 'package.json'), 'utf8'));
    expect(manifest.dependencies.charter).toBe('file:../charter-0.1.0.tgz');
  });

  test('each refusal exits 1 with a message and writes nothing', () => {
    expect(cli([])).toMatchObject({ code: 1, err: expect.stringContaining('Name the folder to create.') });
    expect(cli(['Bad-Name'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot be a package name'),
    });
    expect(cli(['../escape'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('outside the current directory'),
    });
    expect(cli(['made'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('made exists and is not empty'),
    });
    expect(cli(['x', '--template', 'rails'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('Unknown template "rails"'),
    });
    expect(cli(['x', '--template'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('needs a template name'),
    });
    expect(cli(['x', '--frobnicate'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('Unknown option'),
    });
    expect(cli(['x', 'y'])).toMatchObject({ code: 1, err: expect.stringContaining('One folder at a time') });
    expect(() => readFileSync(join(work, 'x', 'package.json'))).toThrow();
  });
});
