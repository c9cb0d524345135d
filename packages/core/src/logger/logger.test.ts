import { describe, expect, test } from 'bun:test';
import { createJsonLogger, resolveLogger, silentLogger } from './logger.ts';

describe('createJsonLogger', () => {
  test('writes one JSON object per line with time, level, msg and fields', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) });
    logger.info('hello', { route: '/x', status: 200 });
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string);
    expect(record).toMatchObject({ level: 'info', msg: 'hello', route: '/x', status: 200 });
    expect(Number.isNaN(Date.parse(record.time))).toBe(false);
  });

  test('drops lines below its level', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ level: 'warn', write: (line) => lines.push(line) });
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    logger.error('d');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['c', 'd']);
  });

  test('serialises errors with name, message and stack', () => {
    const lines: string[] = [];
    createJsonLogger({ write: (line) => lines.push(line) }).error('boom', { error: new TypeError('bad') });
    expect(JSON.parse(lines[0] as string).error).toMatchObject({ name: 'TypeError', message: 'bad' });
  });

  test('survives fields that cannot be serialised', () => {
    const lines: string[] = [];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    createJsonLogger({ write: (line) => lines.push(line) }).info('x', { cyclic });
    expect(JSON.parse(lines[0] as string)).toMatchObject({ msg: 'x', note: 'fields were not serialisable' });
  });

  test('refuses an unknown level', () => {
    expect(() => createJsonLogger({ level: 'loud' as never })).toThrow(/logger.level/);
  });
});

describe('resolveLogger', () => {
  test('false silences, a Logger is used as is', () => {
    expect(resolveLogger(false)).toBe(silentLogger);
    const custom = { debug() {}, info() {}, warn() {}, error() {} };
    expect(resolveLogger(custom)).toBe(custom);
  });
});
