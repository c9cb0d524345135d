/**
 * The option names `serve(app, options)` of charter/bun accepts: a JavaScript caller's typo
 * (`{ prot: 3020 }`) is refused when `serve` is called, with the closest known name, instead of the
 * server silently listening on the default port.
 */
import { assertKnownOptions } from '@charter/core';
import type { BunServeOptions } from './serve.ts';

// One entry per option: the compiler refuses a missing or an extra one.
const BUN_SERVE_OPTION_KEYS: Readonly<Record<keyof BunServeOptions, true>> = {
  port: true,
  hostname: true,
  signals: true,
  shutdownTimeoutMs: true,
  nativeRoutes: true,
  banner: true,
};

/** Throws a TypeError for options that are not an object, or for a key `serve()` does not read. */
export function assertBunServeOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Invalid serve() options: must be an object');
  }
  assertKnownOptions(
    options,
    Object.keys(BUN_SERVE_OPTION_KEYS),
    (key, problem) => new TypeError(`Invalid serve() option "${key}": ${problem}`),
  );
  const { banner } = options as { banner?: unknown };
  if (banner !== undefined && typeof banner !== 'boolean') {
    throw new TypeError('Invalid serve() option "banner": must be a boolean');
  }
}
