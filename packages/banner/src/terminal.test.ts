import { describe, expect, test } from 'bun:test';
import { terminalSafeText } from './sanitize.ts';
import { currentTerminal, shouldUseColor, supportsUnicode } from './terminal.ts';

describe('shouldUseColor', () => {
  test('a terminal gets colour, a pipe does not, TERM=dumb does not', () => {
    expect(shouldUseColor({ env: {}, isTTY: true })).toBe(true);
    expect(shouldUseColor({ env: {}, isTTY: false })).toBe(false);
    expect(shouldUseColor({ env: { TERM: 'dumb' }, isTTY: true })).toBe(false);
  });

  test('NO_COLOR set and not empty turns colour off (https://no-color.org)', () => {
    expect(shouldUseColor({ env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { NO_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
  });

  test('FORCE_COLOR wins over the rest: on unless 0 or false', () => {
    expect(shouldUseColor({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldUseColor({ env: { FORCE_COLOR: '3', NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(shouldUseColor({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { FORCE_COLOR: 'false' }, isTTY: true })).toBe(false);
    expect(shouldUseColor({ env: { FORCE_COLOR: '' }, isTTY: false })).toBe(false);
  });
});

describe('supportsUnicode', () => {
  test('the first locale variable set decides (LC_ALL, LC_CTYPE, LANG)', () => {
    expect(supportsUnicode({ env: { LANG: 'en_US.UTF-8' } })).toBe(true);
    expect(supportsUnicode({ env: { LANG: 'C.utf8' } })).toBe(true);
    expect(supportsUnicode({ env: { LC_ALL: 'C', LANG: 'en_US.UTF-8' } })).toBe(false);
    expect(supportsUnicode({ env: { LC_CTYPE: 'de_DE.UTF-8', LANG: 'C' } })).toBe(true);
    expect(supportsUnicode({ env: { LANG: 'en_US.ISO-8859-1' } })).toBe(false);
  });

  test('without a locale: ASCII on POSIX, Unicode on Windows', () => {
    expect(supportsUnicode({ env: {}, platform: 'linux' })).toBe(false);
    expect(supportsUnicode({ env: {}, platform: 'win32' })).toBe(true);
  });
});

describe('terminalSafeText', () => {
  test('keeps text, stringifies numbers and booleans, falls back for the rest', () => {
    expect(terminalSafeText('  hello  ')).toBe('hello');
    expect(terminalSafeText(3)).toBe('3');
    expect(terminalSafeText(true)).toBe('true');
    expect(terminalSafeText(Number.POSITIVE_INFINITY, { fallback: '?' })).toBe('?');
    expect(terminalSafeText({ toString: () => '\u001b[2J' }, { fallback: 'x' })).toBe('x');
    expect(terminalSafeText('\u0007\u0000', { fallback: 'empty' })).toBe('empty');
  });
});

describe('currentTerminal', () => {
  // A child Bun reports currentTerminal().isTTY and whether anything read process.stdout, which Bun
  // builds on first read (stream, node:tty, node:net: the most expensive step of a small app's start).
  const probe = `
    const { currentTerminal } = await import(${JSON.stringify(new URL('./terminal.ts', import.meta.url).pathname)});
    const original = Object.getOwnPropertyDescriptor(process, 'stdout');
    let read = false;
    Object.defineProperty(process, 'stdout', {
      configurable: true,
      get() { read = true; return original.get ? original.get.call(process) : original.value; },
    });
    const { isTTY } = currentTerminal();
    console.error(JSON.stringify({ isTTY, read }));
  `;

  async function inTerminal(): Promise<string> {
    let output = '';
    const decoder = new TextDecoder();
    const proc = Bun.spawn([process.execPath, '-e', probe], {
      terminal: { cols: 200, rows: 10, data: (_terminal, data) => void (output += decoder.decode(data)) },
    });
    expect(await proc.exited).toBe(0);
    await Bun.sleep(50);
    proc.terminal?.close();
    // Bun colours console.error on a terminal.
    return output.replace(/\x1b\[[0-9;]*m/g, '');
  }

  test('on Bun, a terminal on descriptor 1 is recognised without reading process.stdout', async () => {
    expect(JSON.parse((await inTerminal()).trim().split('\n').at(-1) as string)).toEqual({
      isTTY: true,
      read: false,
    });
  }, 20_000);

  test('on Bun, a pipe on descriptor 1 is not a terminal, without reading process.stdout', async () => {
    const proc = Bun.spawn([process.execPath, '-e', probe], { stdout: 'pipe', stderr: 'pipe' });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stderr)).toEqual({ isTTY: false, read: false });
  }, 20_000);

  test('agrees with process.stdout.isTTY in this process', () => {
    expect(currentTerminal().isTTY).toBe(process.stdout.isTTY === true);
  });
});
