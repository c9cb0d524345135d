/**
 * Runs workers on workerd, Cloudflare's runtime, through miniflare (local mode: no account, no
 * network). Each worker entry is bundled by Bun.build from the built package (`charter` resolves to
 * packages/charter/dist through node_modules, as in a user's project), then loaded as an ES module.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Miniflare } from 'miniflare';

const ROOT = resolve(import.meta.dir, '../../../..');

/** Workers compatibility date of the test workers (miniflare 4.20260730 supports up to 2026-07-30). */
export const COMPATIBILITY_DATE = '2026-07-01';

/** Bundles a worker entry of this folder into one ES module (what `wrangler deploy` uploads). */
export async function bundleWorker(entry: string): Promise<string> {
  if (!existsSync(join(ROOT, 'packages', 'charter', 'dist', 'cloudflare.js'))) {
    throw new Error('packages/charter/dist/cloudflare.js is missing: run `bun run build` first');
  }
  const built = await Bun.build({
    entrypoints: [join(import.meta.dir, entry)],
    target: 'browser',
    format: 'esm',
    minify: false,
  });
  if (!built.success) throw new AggregateError(built.logs, `Bun.build of ${entry} failed`);
  const [output] = built.outputs;
  if (output === undefined) throw new Error(`Bun.build of ${entry} gave no output`);
  return output.text();
}

export { Miniflare };
