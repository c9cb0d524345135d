import { afterEach, describe, expect, test } from 'bun:test';
import { formatStartupBanner, printStartupBanner } from './format.ts';

const ESC = '\u001b';
const base = { name: 'Todos', version: '1.2.0', url: 'http://127.0.0.1:3000', runtime: 'bun 1.3.0' };
const links = [
  { label: 'Docs', url: 'http://127.0.0.1:3000/docs' },
  { label: 'OpenAPI', url: 'http://127.0.0.1:3000/openapi.json' },
];

describe('formatStartupBanner', () => {
  test('shows the name, version, runtime, where it listens and the links, aligned', () => {
    expect(formatStartupBanner({ ...base, links, color: false, ascii: false })).toBe(
      [
        '',
        '  Todos v1.2.0 \u00b7 Charter on bun 1.3.0',
        '',
        '  \u279c Local:   http://127.0.0.1:3000',
        '  \u279c Docs:    http://127.0.0.1:3000/docs',
        '  \u279c OpenAPI: http://127.0.0.1:3000/openapi.json',
        '',
        '',
      ].join('\n'),
    );
  });

  test('the ASCII form has no byte outside printable ASCII and newlines', () => {
    const text = formatStartupBanner({ ...base, name: 'Caf\u00e9 \u2603', links, color: false, ascii: true });
    expect(text).toMatch(/^[\x20-\x7e\n]+$/);
    expect(text).toContain('  -> Local:   http://127.0.0.1:3000\n');
    expect(text).toContain('Caf? ? v1.2.0 - Charter on bun 1.3.0');
  });

  test('colour is ANSI SGR that resets after each piece; without colour there is no escape at all', () => {
    const colored = formatStartupBanner({ ...base, color: true, ascii: true });
    expect(colored).toContain(`${ESC}[1;36mTodos${ESC}[0m`);
    expect(colored).toContain(`${ESC}[36mhttp://127.0.0.1:3000${ESC}[0m`);
    expect(formatStartupBanner({ ...base, color: false, ascii: true })).not.toContain(ESC);
  });

  test('a version that does not start with a digit is shown as it is; missing parts are left out', () => {
    expect(formatStartupBanner({ name: 'A', version: 'dev', color: false, ascii: true })).toBe(
      '\n  A dev - Charter\n\n',
    );
    expect(formatStartupBanner({ color: false, ascii: true } as never)).toBe('\n  app - Charter\n\n');
  });

  test('control characters cannot inject terminal escapes (C0, C1 CSI, OSC title, bidi overrides)', () => {
    const text = formatStartupBanner({
      name: `evil${ESC}]0;pwned\u0007${ESC}[2J\u009b31m\u202eoops`,
      version: `1.0${ESC}[8m`,
      url: `http://x/${ESC}[1A\r\n`,
      runtime: 'bun\u0000',
      links: [{ label: `Do${ESC}cs\n`, url: `http://x/docs\u2066` }],
      color: false,
      ascii: false,
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('evil]0;pwned[2J31moops v1.0[8m');
    expect(text).toContain('Docs:  http://x/docs');
  });

  test('long values are cut with an ellipsis, never splitting a character', () => {
    const text = formatStartupBanner({
      name: `${'a'.repeat(79)}\u{1f600}\u{1f600}`,
      url: 'x'.repeat(500),
      color: false,
      ascii: false,
    });
    expect(text).toContain(`${'a'.repeat(79)}\u2026`);
    expect(text).toContain(`${'x'.repeat(199)}\u2026`);
    expect(text).not.toContain('x'.repeat(200));
  });

  test('never throws on odd input', () => {
    const odd: unknown[] = [
      undefined,
      null,
      42,
      'text',
      [],
      { name: {}, version: Symbol('v'), url: 12, runtime: Number.NaN, links: 'nope', color: 'yes', ascii: 1 },
      { links: [null, 1, { url: undefined }, { label: 3, url: 'http://a' }] },
      new Proxy(
        {},
        {
          get() {
            throw new Error('getter');
          },
        },
      ),
    ];
    for (const value of odd) expect(() => formatStartupBanner(value as never)).not.toThrow();
    expect(
      formatStartupBanner({
        links: [null, { label: 3, url: 'http://a' }],
        color: false,
        ascii: true,
      } as never),
    ).toContain('-> 3: http://a');
  });
});

describe('formatStartupBanner: the environment decides when not told', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ['NO_COLOR', 'FORCE_COLOR', 'LANG', 'LC_ALL', 'LC_CTYPE']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  test('FORCE_COLOR colours and NO_COLOR does not (standard output is not a terminal here)', () => {
    delete process.env.NO_COLOR;
    process.env.FORCE_COLOR = '1';
    expect(formatStartupBanner(base)).toContain(ESC);
    delete process.env.FORCE_COLOR;
    process.env.NO_COLOR = '1';
    expect(formatStartupBanner(base)).not.toContain(ESC);
  });

  test('a UTF-8 locale gets the arrows, the C locale gets ASCII', () => {
    delete process.env.LC_ALL;
    delete process.env.LC_CTYPE;
    process.env.LANG = 'en_US.UTF-8';
    expect(formatStartupBanner({ ...base, color: false })).toContain('\u279c');
    process.env.LC_ALL = 'C';
    expect(formatStartupBanner({ ...base, color: false })).toContain('->');
  });
});

describe('printStartupBanner', () => {
  test('writes the banner through `write`', () => {
    let written = '';
    printStartupBanner({ ...base, color: false, ascii: true, write: (text) => (written += text) });
    expect(written).toBe(formatStartupBanner({ ...base, color: false, ascii: true }));
  });

  test('a failing write is swallowed', () => {
    expect(() =>
      printStartupBanner({
        ...base,
        write: () => {
          throw new Error('EPIPE');
        },
      }),
    ).not.toThrow();
  });
});
