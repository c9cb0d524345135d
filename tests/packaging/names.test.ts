/**
 * The built package minifies identifiers (scripts/build.ts: fewer bytes to parse at start-up), and even
 * without that the bundler renames classes whose names collide across modules (`NotFoundError2`).
 * `error.name` comes from the class (`HttpError` copies `new.target.name`) and is what logs and traces
 * show, so the built error classes must keep the names they are exported under; a user's own subclass
 * must still get its own name. Checked in Bun and under Node, importing `charter` by name from the
 * consumer fixture, linked here (test files run in any order).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIST } from '../../scripts/build.ts';
import { linkCharterInto } from '../support/link-charter.ts';

const FIXTURE = join(import.meta.dir, 'fixtures', 'consumer');

/**
 * Runs in the consumer fixture (Bun or Node): every exported class of the HttpError family, its
 * `.name` and a fresh instance's `error.name`; `App`; and user subclasses declared here.
 */
const SCRIPT = `
const charter = await import('charter');
const args = {
  HttpError: [{ status: 418 }],
  MethodNotAllowedError: [['GET']],
  ValidationError: [[]],
  UnsafeRedirectError: ['scheme', 'javascript:alert(1)'],
};
const errors = {};
for (const [exported, value] of Object.entries(charter)) {
  if (typeof value !== 'function') continue;
  if (value !== charter.HttpError && !(value.prototype instanceof charter.HttpError)) continue;
  const error = new value(...(args[exported] ?? []));
  errors[exported] = { className: value.name, errorName: error.name };
}
class TeapotError extends charter.HttpError {
  constructor() { super({ status: 418 }); }
}
class MissingWidgetError extends charter.NotFoundError {}
const app = new charter.App({ logger: false });
process.stdout.write(JSON.stringify({
  errors,
  app: { className: charter.App.name, constructorName: app.constructor.name },
  userErrors: [new TeapotError().name, new MissingWidgetError('no widget').name],
}));
`;

interface Names {
  errors: Record<string, { className: string; errorName: string }>;
  app: { className: string; constructorName: string };
  userErrors: string[];
}

function namesIn(runtime: string): Names {
  const run = Bun.spawnSync([runtime, '--input-type=module', '-e', SCRIPT], {
    cwd: FIXTURE,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const output = `${run.stdout.toString()}${run.stderr.toString()}`;
  if (run.exitCode !== 0) throw new Error(`${runtime} failed:\n${output}`);
  return JSON.parse(run.stdout.toString()) as Names;
}

function expectKeptNames(names: Names): void {
  const exported = Object.keys(names.errors).sort();
  // The whole family is found (a broken prototype chain would silently shrink the list).
  expect(exported).toEqual(
    expect.arrayContaining([
      'HttpError',
      'BadRequestError',
      'NotFoundError',
      'MethodNotAllowedError',
      'ValidationError',
      'InternalError',
      'UnsafeRedirectError',
    ]),
  );
  for (const name of exported) {
    expect({ name, ...names.errors[name] }).toEqual({ name, className: name, errorName: name });
  }
  expect(names.app).toEqual({ className: 'App', constructorName: 'App' });
  // A subclass declared by the user is named after itself, not after the class it extends.
  expect(names.userErrors).toEqual(['TeapotError', 'MissingWidgetError']);
}

describe('the built package keeps the names users see', () => {
  beforeAll(() => linkCharterInto(FIXTURE));

  test('charter is built and linked into the consumer fixture', () => {
    expect(existsSync(join(DIST, 'index.js'))).toBe(true);
    expect(existsSync(join(FIXTURE, 'node_modules', 'charter', 'package.json'))).toBe(true);
  });

  test('in Bun: every HttpError class and its errors carry the exported name; App is App', () => {
    // `bun -e` takes no --input-type; it treats the script as a module anyway.
    const run = Bun.spawnSync([process.execPath, '-e', SCRIPT], {
      cwd: FIXTURE,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const output = `${run.stdout.toString()}${run.stderr.toString()}`;
    if (run.exitCode !== 0) throw new Error(`bun failed:\n${output}`);
    expectKeptNames(JSON.parse(run.stdout.toString()) as Names);
  });

  const node = Bun.which('node');
  test.skipIf(!node)(
    'under Node: the same names',
    () => {
      expectKeptNames(namesIn(node as string));
    },
    60_000,
  );
});
