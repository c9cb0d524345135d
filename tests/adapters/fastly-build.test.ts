/**
 * charter/fastly through Fastly's own toolchain, offline: `js-compute-runtime` (@fastly/js-compute, the
 * compiler `fastly compute build` runs) bundles an entry that imports `charter` and `charter/fastly` by
 * name (the built package, linked as a user's node_modules would hold it) and compiles it to a Wasm
 * component. Compiling pre-initializes the module (Wizer): the entry's top level (the App, its routes,
 * `listen(app)` registering the fetch listener on the runtime's addEventListener) runs inside Fastly's
 * JavaScript engine, and a top-level exception fails the build. The Request builtin is not available
 * during initialization, and Fastly's local server (Viceroy) is not downloadable here, so no request is
 * served inside the Compute runtime; fastly.test.ts drives the event shape in process.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './fixtures/node24.ts';

const COMPILER = join(ROOT, 'node_modules', '.bin', 'js-compute-runtime');
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'charter-fastly-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'packages', 'charter'), join(dir, 'node_modules', 'charter'), 'dir');
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const ENTRY = `import { App, NotFoundError } from 'charter';
import { listen } from 'charter/fastly';

const app = new App({ production: true, behindProxy: 'none' });
app.get('/hello/:name', { responses: { 200: {} } }, (ctx) => ({ status: 200, body: { hello: ctx.params.name } }));
app.get('/missing', { responses: { 200: {} } }, () => {
  throw new NotFoundError('nothing here');
});
__EXTRA__
listen(app);
`;

async function compile(
  name: string,
  extra: string,
): Promise<{ code: number; output: string; wasm: Uint8Array }> {
  const source = join(dir, `${name}.js`);
  const out = join(dir, `${name}.wasm`);
  writeFileSync(source, ENTRY.replace('__EXTRA__', extra));
  const child = Bun.spawn([COMPILER, source, out], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  let wasm = new Uint8Array(0);
  try {
    wasm = new Uint8Array(readFileSync(out));
  } catch {}
  return { code, output: stdout + stderr, wasm };
}

describe('js-compute-runtime (offline)', () => {
  test('compiles an entry importing charter and charter/fastly to Wasm, its top level run in Fastly’s engine', async () => {
    const { code, output, wasm } = await compile('service', '');
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    // A Wasm binary (component or module): "\\0asm".
    expect([...wasm.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
    expect(wasm.byteLength).toBeGreaterThan(1_000_000);
  }, 240_000);

  test('an App Fastly cannot serve fails the build with the adapter’s reason', async () => {
    const { code, output, wasm } = await compile('websocket', "app.ws('/live', { message() {} });");
    expect(code).not.toBe(0);
    expect(output).toContain(
      'toFastlyHandler: the App has WebSocket routes (/live), which Fastly Compute cannot serve',
    );
    expect(wasm.byteLength).toBe(0);
  }, 240_000);
});
