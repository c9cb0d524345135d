// The process environment, read through `globalThis.process` so the core stays runtime-neutral:
// on a worker without `process` every default is the development one.

/** True when `NODE_ENV` is `production`; false where there is no `process` (Cloudflare-style workers). */
export function isProductionEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.NODE_ENV === 'production';
}
