/**
 * The floors of `bench/types/check.ts` (issue 18, item 5): `builder` types the same chain with the
 * least a contract-first builder must do, `syntax` with no typing at all. content/docs/typed-client.md
 * compares Charter's chain with them, so `builder` must really type the handlers (a wrong answer, a
 * wrong status or a misread context fails the check) and `syntax` must really not, or the comparison
 * says nothing. Neither touches Charter.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, generate, parseArgs, writeProject } from '../../bench/types/check.ts';

/** Checks the generated project after `edit` changed its one file; tsc's output when it fails. */
function checkEdited(variant: 'builder' | 'syntax', edit: (source: string) => string): string | undefined {
  const dir = writeProject(variant, 6);
  try {
    const file = join(dir, 'app.ts');
    const source = readFileSync(file, 'utf8');
    const edited = edit(source);
    expect(edited).not.toBe(source);
    writeFileSync(file, edited);
    check(dir);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const unchanged = (source: string) => `${source}\n// unchanged\n`;
const wrongBody = (source: string) => source.replace('n3: ctx.query.limit ?? 0', "n3: 'three'");
const wrongStatus = (source: string) =>
  source.replace(
    '({ status: 200, body: { id: ctx.params.id, name: ctx.query.f2',
    '({ status: 201, body: { id: ctx.params.id, name: ctx.query.f2',
  );
const unknownQuery = (source: string) => source.replace('name: ctx.query.f4,', 'name: ctx.query.f5,');

describe('bench/types/check.ts floors', () => {
  test('declare their own builder in place of Charter, around the same chain as the app', () => {
    const app = generate('app', 20);
    const builder = generate('builder', 20);
    const syntax = generate('syntax', 20);
    for (const source of [builder, syntax]) {
      expect(source).not.toContain("from 'charter");
      expect(source).toContain('declare class App implements Builder');
      expect(source).not.toContain('createClient');
    }
    // The chain itself, character for character.
    const chain = (source: string) =>
      source.slice(
        source.indexOf('export const app'),
        source.indexOf(';\n', source.indexOf('export const app')),
      );
    expect(chain(builder)).toBe(chain(app));
    expect(chain(syntax)).toBe(chain(app));
    expect(parseArgs(['1000', '--variant', 'app,builder,syntax']).variants).toEqual([
      'app',
      'builder',
      'syntax',
    ]);
  });

  test('builder types every handler: the chain as generated passes', () => {
    expect(checkEdited('builder', unchanged)).toBeUndefined();
  }, 60_000);

  test('builder refuses an answer whose body is not the response schema input', () => {
    expect(checkEdited('builder', wrongBody)).toMatch(
      /app\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  }, 60_000);

  test('builder refuses a status the route does not declare', () => {
    expect(checkEdited('builder', wrongStatus)).toMatch(/app\.ts\(\d+,\d+\): error TS2322:.*'201'/s);
  }, 60_000);

  test('builder refuses a query field the schema does not have', () => {
    expect(checkEdited('builder', unknownQuery)).toMatch(
      /app\.ts\(\d+,\d+\): error TS2339: Property 'f5' does not exist/,
    );
  }, 60_000);

  test('syntax types nothing: the same three mistakes pass', () => {
    expect(checkEdited('syntax', (source) => unknownQuery(wrongStatus(wrongBody(source))))).toBeUndefined();
  }, 60_000);
});
