/**
 * Which proxies an app sits behind, and so which address sent a request. Forwarded headers are text
 * any client can write (RFC 7239 §8.1); only the hops that trusted proxies appended, counted from the
 * right, say anything true.
 */
import { type CidrMatcher, compileCidrs, parseCidr } from './cidr.ts';
import {
  type ForwardedHop,
  ipHop,
  parseForwarded,
  parseForwardedNode,
  parseXForwardedFor,
} from './forwarded.ts';
import { classifyIp } from './ip-class.ts';
import { parseIp } from './ip.ts';

/** The `behindProxy` App option: which proxies sit in front of the app. */
export type ProxyPosture = 'none' | 'loopback' | { hops: number } | { cidrs: readonly string[] };

/** A validated proxy posture. `unset` means neither `behindProxy` nor `trustProxy` was given. */
export type ResolvedProxyPosture =
  | { readonly kind: 'unset' }
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'loopback' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'cidrs'; readonly cidrs: readonly string[]; readonly trusted: CidrMatcher };

/** Where `clientAddress` found the address. */
export type ClientAddressSource = 'peer' | 'x-forwarded-for' | 'forwarded';

/** The answer of `clientAddress`. */
export interface ClientAddress {
  /** Canonical text (RFC 5952; IPv4-mapped as IPv4), or undefined when it cannot be known. */
  readonly address: string | undefined;
  /** True when the request carries X-Forwarded-For or Forwarded, honoured or not. */
  readonly forwarded: boolean;
  /** The peer, or the header whose hop was chosen. */
  readonly via: ClientAddressSource;
}

const UNSET = Object.freeze({ kind: 'unset' as const });
const NONE = Object.freeze({ kind: 'none' as const });
const ALL = Object.freeze({ kind: 'all' as const });
const LOOPBACK = Object.freeze({ kind: 'loopback' as const });

function resolveCidrs(cidrs: unknown): ResolvedProxyPosture {
  if (!Array.isArray(cidrs) || cidrs.length === 0) {
    throw new TypeError('behindProxy.cidrs must be a non-empty array of CIDR blocks or IP addresses');
  }
  cidrs.forEach((entry, index) => {
    const cidr = parseCidr(entry as string, `behindProxy.cidrs[${index}]`);
    if (cidr.prefix === 0) {
      // A /0 trusts every address as a proxy: any client could then write its own address.
      throw new RangeError(
        `behindProxy.cidrs[${index}]: "${String(entry)}" trusts every address as a proxy, so any client could forge its address; list your proxies' networks`,
      );
    }
  });
  const list = Object.freeze([...(cidrs as string[])]);
  return Object.freeze({ kind: 'cidrs', cidrs: list, trusted: compileCidrs(list, 'behindProxy.cidrs') });
}

/**
 * Validates the proxy options: `behindProxy` wins over `trustProxy`; `trustProxy: false` is `none`,
 * `trustProxy: true` trusts every hop (the left-most address is the client); neither gives `unset`.
 * Throws a TypeError or RangeError naming the option.
 */
export function resolveProxyPosture(options: {
  trustProxy?: boolean;
  behindProxy?: ProxyPosture;
}): ResolvedProxyPosture {
  const { trustProxy, behindProxy } = options;
  if (trustProxy !== undefined && typeof trustProxy !== 'boolean') {
    throw new TypeError(`trustProxy must be a boolean, got ${typeof trustProxy}`);
  }
  if (behindProxy === undefined) {
    if (trustProxy === undefined) return UNSET;
    return trustProxy ? ALL : NONE;
  }
  if (behindProxy === 'none') return NONE;
  if (behindProxy === 'loopback') return LOOPBACK;
  if (typeof behindProxy !== 'object' || behindProxy === null) {
    throw new TypeError(
      `behindProxy must be 'none', 'loopback', { hops: number } or { cidrs: string[] }, got ${JSON.stringify(behindProxy)}`,
    );
  }
  const hasHops = 'hops' in behindProxy;
  const hasCidrs = 'cidrs' in behindProxy;
  if (hasHops === hasCidrs) {
    throw new TypeError('behindProxy must have exactly one of `hops` or `cidrs`');
  }
  if (hasHops) {
    const hops = (behindProxy as { hops: unknown }).hops;
    if (typeof hops !== 'number' || !Number.isSafeInteger(hops) || hops < 1) {
      throw new RangeError(`behindProxy.hops must be a positive integer, got ${String(hops)}`);
    }
    return Object.freeze({ kind: 'hops', hops });
  }
  return resolveCidrs((behindProxy as { cidrs: unknown }).cidrs);
}

interface Chain {
  /** Left-most first; the peer is the last entry. */
  readonly hops: readonly ForwardedHop[];
  /** Entries before this index came from the header. */
  readonly peerIndex: number;
  readonly header: 'x-forwarded-for' | 'forwarded';
}

function peerHop(peer: string | undefined): ForwardedHop {
  if (peer === undefined) return { kind: 'invalid', raw: '' };
  // The socket's own text: a zone id (`fe80::1%eth0`) is dropped, not refused.
  const ip = parseIp(peer.trim(), { zone: 'strip' });
  return ip === undefined ? parseForwardedNode(peer) : ipHop(peer, ip);
}

/**
 * The chain of hops: X-Forwarded-For when present, else Forwarded. X-Forwarded-For is preferred
 * because nearly every proxy maintains it, and a proxy maintaining only one header passes the other
 * through from the client untouched.
 */
function readChain(headers: Headers, peer: ForwardedHop): Chain | undefined {
  const xff = headers.get('x-forwarded-for');
  if (xff !== null) {
    const hops = parseXForwardedFor(xff);
    return { hops: [...hops, peer], peerIndex: hops.length, header: 'x-forwarded-for' };
  }
  const forwarded = headers.get('forwarded');
  if (forwarded !== null) {
    const hops = parseForwarded(forwarded).map((element) => element.for);
    return { hops: [...hops, peer], peerIndex: hops.length, header: 'forwarded' };
  }
  return undefined;
}

function answer(chain: Chain, index: number): ClientAddress {
  const hop = chain.hops[index] as ForwardedHop;
  return {
    address: hop.kind === 'ip' ? hop.address : undefined,
    forwarded: true,
    via: index === chain.peerIndex ? 'peer' : chain.header,
  };
}

function isLoopback(hop: ForwardedHop): boolean {
  return hop.kind === 'ip' && hop.ip !== undefined && classifyIp(hop.ip) === 'loopback';
}

/**
 * The client address of a request under a proxy posture (`peer` is the socket's remote address):
 * - `unset`, `none`: the peer; forwarded headers are ignored.
 * - `all` (`trustProxy: true`): the left-most hop of the chain.
 * - `loopback`: when the peer is a loopback address, the first non-loopback hop from the right
 *   (the left-most hop when all are loopback); otherwise the peer.
 * - `hops: N`: the peer is the nearest proxy, hop 1; the client is the hop N places left of the peer
 *   (the left-most hop when the chain is shorter).
 * - `cidrs`: walking from the peer leftwards, the first hop outside the trusted blocks (the left-most
 *   hop when all are trusted).
 * An `unknown`, obfuscated or unparseable hop where the client should be gives `address: undefined`.
 */
export function clientAddress(input: {
  peer: string | undefined;
  headers: Headers;
  posture: ResolvedProxyPosture;
}): ClientAddress {
  const { headers, posture } = input;
  const peer = peerHop(input.peer);
  const chain = readChain(headers, peer);
  const forwarded = chain !== undefined;
  const kind = posture.kind;
  if (
    chain === undefined ||
    kind === 'unset' ||
    kind === 'none' ||
    (kind === 'loopback' && !isLoopback(peer))
  ) {
    return { address: peer.kind === 'ip' ? peer.address : undefined, forwarded, via: 'peer' };
  }
  const last = chain.hops.length - 1;
  switch (kind) {
    case 'all':
      return answer(chain, 0);
    case 'hops':
      return answer(chain, Math.max(0, last - posture.hops));
    case 'loopback': {
      let index = last;
      while (index > 0 && isLoopback(chain.hops[index] as ForwardedHop)) index--;
      return answer(chain, index);
    }
    case 'cidrs': {
      let index = last;
      while (index > 0) {
        const hop = chain.hops[index] as ForwardedHop;
        if (hop.kind !== 'ip' || !posture.trusted(hop.ip as NonNullable<ForwardedHop['ip']>)) break;
        index--;
      }
      return answer(chain, index);
    }
  }
}
