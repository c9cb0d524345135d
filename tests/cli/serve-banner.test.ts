/**
 * The startup banner of charter/bun and charter/node, seen as a person sees it: the server runs in a
 * real pseudo-terminal (Bun.spawn's `terminal`), or with its output piped as in a container or a test.
 * By default the banner is printed on a terminal only (and not under NODE_ENV=test); `banner: true`
 * and `banner: false` decide instead; the structured "Listening" line is there every time.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { node24 } from '../adapters/fixtures/node24.ts';
import { CLI_TIMEOUT_MS, cleanEnv, fixture, prepareCli, type Runtime, runtimePath } from './support.ts';

const SCRIPT = fixture('banner/serve.ts');
const ESC = '\u001b';

beforeAll(() => prepareCli());

function command(runtime: Runtime, mode: string): string[] {
  return [runtimePath(runtime), SCRIPT, mode];
}

/** Runs the fixture in a pseudo-terminal and resolves everything it wrote (CRLF made LF). */
async function inTerminal(runtime: Runtime, mode: string, env: Record<string, string> = {}): Promise<string> {
  const decoder = new TextDecoder();
  let output = '';
  const proc = Bun.spawn(command(runtime, mode), {
    cwd: fixture('banner'),
    env: cleanEnv({ LANG: 'C.UTF-8', ...env }),
    terminal: {
      cols: 200,
      rows: 50,
      data: (_terminal, data) => {
        output += decoder.decode(data, { stream: true });
      },
    },
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 45_000);
  await proc.exited;
  clearTimeout(timer);
  // Let the last bytes of the terminal arrive before closing it.
  await Bun.sleep(50);
  proc.terminal?.close();
  return output.replace(/\r\n/g, '\n');
}

/** Runs the fixture with its output piped, as a container or a test runner does. */
async function piped(runtime: Runtime, mode: string, env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn(command(runtime, mode), {
    cwd: fixture('banner'),
    env: cleanEnv({ LANG: 'C.UTF-8', ...env }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  expect(await proc.exited).toBe(0);
  expect(stderr).toBe('');
  return stdout;
}

const readyUrl = (output: string): string => {
  const url = /^READY (\S+)$/m.exec(output)?.[1];
  if (url === undefined) throw new Error(`no READY line in: ${output}`);
  return url;
};
const listening = (output: string) => output.split('\n').some((line) => /"msg":"Listening"/.test(line));

for (const runtime of ['bun', 'node'] as const) {
  const label = runtime === 'bun' ? `bun ${Bun.version}` : 'node v';
  describe(`charter/${runtime} serve(): the startup banner`, () => {
    beforeAll(() => {
      if (runtime === 'node') node24();
    });

    test(
      'on a terminal it is printed, with the Docs and OpenAPI URLs, beside the Listening line',
      async () => {
        const output = await inTerminal(runtime, 'default', { NO_COLOR: '1' });
        const url = readyUrl(output);
        expect(output).toContain(`  Banner App v2.0.0 \u00b7 Charter on ${label}`);
        expect(output).toContain(`  \u279c Local:   ${url}\n`);
        expect(output).toContain(`  \u279c Docs:    ${url}/docs\n`);
        expect(output).toContain(`  \u279c OpenAPI: ${url}/openapi.json\n`);
        expect(output).not.toContain(ESC);
        expect(listening(output)).toBe(true);
      },
      CLI_TIMEOUT_MS,
    );

    test(
      'on a terminal it is coloured unless NO_COLOR; ASCII when the locale is not UTF-8',
      async () => {
        const colored = await inTerminal(runtime, 'default');
        expect(colored).toContain(`${ESC}[1;36mBanner App${ESC}[0m`);
        const ascii = await inTerminal(runtime, 'default', { NO_COLOR: '1', LANG: 'C', LC_ALL: 'C' });
        expect(ascii).toContain(`  -> Local:   ${readyUrl(ascii)}\n`);
      },
      CLI_TIMEOUT_MS,
    );

    test(
      'piped output (a container, a test runner) gets the Listening line alone',
      async () => {
        const output = await piped(runtime, 'default');
        readyUrl(output);
        expect(output).not.toContain('Local:');
        expect(listening(output)).toBe(true);
      },
      CLI_TIMEOUT_MS,
    );

    test(
      'banner: true prints it even when piped; banner: false never, even on a terminal',
      async () => {
        const forced = await piped(runtime, 'true');
        expect(forced).toContain(`  \u279c Local:   ${readyUrl(forced)}\n`);
        expect(listening(forced)).toBe(true);
        const off = await inTerminal(runtime, 'false', { NO_COLOR: '1' });
        readyUrl(off);
        expect(off).not.toContain('Local:');
        expect(listening(off)).toBe(true);
      },
      CLI_TIMEOUT_MS,
    );

    test(
      'under NODE_ENV=test nothing is printed by default, even on a terminal',
      async () => {
        const output = await inTerminal(runtime, 'default', { NODE_ENV: 'test', NO_COLOR: '1' });
        readyUrl(output);
        expect(output).not.toContain('Local:');
      },
      CLI_TIMEOUT_MS,
    );
  });
}

describe('the banner option is checked', () => {
  test('charter/bun and charter/node refuse a banner that is not a boolean, naming it', async () => {
    const { App } = await import('charter');
    const { serve } = await import('charter/bun');
    const { resolveServeOptions } = await import('../../packages/node/src/serve-options.ts');
    const app = new App({ logger: false });
    expect(() => serve(app, { port: 0, banner: 'yes' as never })).toThrow(
      'Invalid serve() option "banner": must be a boolean',
    );
    expect(() => resolveServeOptions({ banner: 1 as never })).toThrow(
      'Invalid serve() option "banner": must be a boolean',
    );
    expect(resolveServeOptions({ banner: false }).port).toBe(3000);
  });
});
