/**
 * Name resolution for the outbound request guard. The core stays runtime-neutral: the system
 * resolver is reached lazily through `process.getBuiltinModule` (Bun, Node 22.3+, Deno) and is absent
 * elsewhere (Cloudflare-style workers), where only IP literals and an injected resolver work.
 */

/** Resolves a host name to every address it has (IPv4 and IPv6 text). */
export type HostResolver = (host: string) => Promise<readonly string[]> | readonly string[];

interface LookupAddress {
  address: string;
  family: number;
}

interface DnsModule {
  promises?: {
    lookup?: (host: string, options: { all: true; verbatim: boolean }) => Promise<LookupAddress[]>;
  };
}

interface ProcessLike {
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * The runtime's resolver (`dns.promises.lookup` with `all: true`, answers in the order the system
 * gives them), or undefined when the runtime has none.
 */
export function systemResolver(): HostResolver | undefined {
  let dns: DnsModule | undefined;
  try {
    const proc = (globalThis as { process?: ProcessLike }).process;
    dns = proc?.getBuiltinModule?.('node:dns') as DnsModule | undefined;
  } catch {
    dns = undefined;
  }
  const lookup = dns?.promises?.lookup;
  if (typeof lookup !== 'function') return undefined;
  const promises = dns?.promises;
  return async (host) => {
    const answers = await lookup.call(promises, host, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  };
}
