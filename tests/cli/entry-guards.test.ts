/** The entry-path guards (resolveEntryPath, findEntry) and how an App is found among an entry's exports. */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appFromModule, findEntry, isCliApp, resolveEntryPath, UsageError } from '@charter/cli';
import { App } from 'charter';
import { tempDir } from './support.ts';

const tmp = tempDir();
const project = join(tmp.path, 'project');
const outside = join(tmp.path, 'outside');
mkdirSync(join(project, 'src'), { recursive: true });
mkdirSync(join(project, 'node_modules', 'lib'), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(project, 'src', 'app.ts'), 'export default 1;\n');
writeFileSync(join(project, 'main.mjs'), 'export default 1;\n');
writeFileSync(join(project, 'node_modules', 'lib', 'index.js'), 'export default 1;\n');
writeFileSync(join(project, 'notes.txt'), 'text\n');
writeFileSync(join(outside, 'evil.ts'), 'export default 1;\n');
symlinkSync(join(outside, 'evil.ts'), join(project, 'link.ts'));
symlinkSync(join(project, 'node_modules', 'lib', 'index.js'), join(project, 'dep.js'));
symlinkSync(join(project, 'src', 'app.ts'), join(project, 'alias.ts'));
afterAll(() => tmp.remove());

const refusal = (input: string): string => {
  try {
    resolveEntryPath(input, project);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${input} was accepted`);
};

describe('resolveEntryPath', () => {
  test('accepts a module file inside the project, relative or absolute, and a link that stays inside', () => {
    expect(resolveEntryPath('src/app.ts', project)).toBe(join(project, 'src', 'app.ts'));
    expect(resolveEntryPath('./src/../src/app.ts', project)).toBe(join(project, 'src', 'app.ts'));
    expect(resolveEntryPath(join(project, 'main.mjs'), project)).toBe(join(project, 'main.mjs'));
    expect(resolveEntryPath('alias.ts', project)).toBe(join(project, 'alias.ts'));
  });

  test('refuses a path that climbs out of the project', () => {
    expect(refusal('../outside/evil.ts')).toContain('is outside the project');
    expect(refusal('src/../../outside/evil.ts')).toContain('is outside the project');
    expect(refusal(join(outside, 'evil.ts'))).toContain('is outside the project');
  });

  test('refuses a symbolic link to a file outside the project or in node_modules', () => {
    expect(refusal('link.ts')).toContain('is a link to');
    expect(refusal('dep.js')).toContain('is a link to');
  });

  test('refuses node_modules, URLs, control characters, non-modules, missing files and folders', () => {
    expect(refusal('node_modules/lib/index.js')).toContain('is inside node_modules');
    expect(refusal('https://example.com/app.ts')).toContain('is a URL');
    expect(refusal('data:text/javascript,export default 1')).toContain('is a URL');
    expect(refusal('//example.com/app.ts')).toContain('is a URL');
    expect(refusal('src/app\n.ts')).toContain('contains control characters');
    expect(refusal('notes.txt')).toContain('is not a module');
    expect(refusal('src/none.ts')).toContain('does not exist');
    expect(refusal('')).toBe('the entry path is empty');
    expect(refusal('.')).toContain('is the project folder');
    mkdirSync(join(project, 'dir.ts'), { recursive: true });
    expect(refusal('dir.ts')).toContain('is not a file');
  });
});

describe('findEntry', () => {
  test('takes the given entry, else the first default that exists', () => {
    expect(findEntry('main.mjs', project)).toBe(join(project, 'main.mjs'));
    expect(findEntry(undefined, project)).toBe(join(project, 'src', 'app.ts'));
    expect(findEntry(undefined, project, ['server.ts', 'main.mjs'])).toBe(join(project, 'main.mjs'));
  });

  test('without any, names the defaults it looked for', () => {
    expect(() => findEntry(undefined, outside)).toThrow('none of src/app.ts, app.ts exists');
  });
});

describe('appFromModule', () => {
  const app = new App({ logger: false });

  test('finds the default export, an app export, or a createApp() factory (sync or async), in that order', async () => {
    expect(await appFromModule({ default: app }, 'e.ts')).toBe(app);
    expect(await appFromModule({ default: () => app }, 'e.ts')).toBe(app);
    expect(await appFromModule({ app }, 'e.ts')).toBe(app);
    expect(await appFromModule({ createApp: async () => app }, 'e.ts')).toBe(app);
    const other = new App({ logger: false });
    expect(await appFromModule({ default: app, app: other }, 'e.ts')).toBe(app);
    expect(await appFromModule({ default: 42, app: other }, 'e.ts')).toBe(other);
  });

  test('an entry without an App is a usage error listing its exports', async () => {
    await expect(appFromModule({ answer: 42, default: 'x' }, 'e.ts')).rejects.toThrow(
      'e.ts exports no Charter App (not the default export; its exports: answer, default)',
    );
    await expect(appFromModule({}, 'e.ts')).rejects.toThrow(
      'no default, app or createApp export; its exports: none',
    );
  });

  test('isCliApp checks the shape, not the class', () => {
    expect(isCliApp(app)).toBe(true);
    expect(isCliApp({ registeredRoutes() {}, fetch() {} })).toBe(false);
    expect(isCliApp(null)).toBe(false);
  });
});
