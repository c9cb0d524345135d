/**
 * The `API-Version` request header of `/api/v1` (site.md rule 6): a client may pin the major it was
 * written for. `1`, `v1`, `1.0` and `1.0.0` (or no header) pin major 1; anything else is refused
 * with 400 `unsupported_api_version`, so a client pinned to another major never silently gets this
 * one. The header is a singleton: several values (`1, 2`, two fields) are refused too.
 */
import { BadRequestError, type Hooks } from '@charter/core';
import { API_MAJOR, API_PATH, API_VERSION_HEADER, POLICY_PAGE } from './lifecycle.ts';

/** The values that pin major 1 (site.md), exactly as listed; surrounding white space is ignored. */
export const ACCEPTED_API_VERSIONS: readonly string[] = ['1', 'v1', '1.0', '1.0.0'];

const ACCEPTED = new Set(ACCEPTED_API_VERSIONS);
const MAX_ECHO = 64;

/** True when the header value (null: absent) pins the current major. */
export function acceptsApiVersion(value: string | null): boolean {
  if (value === null) return true;
  return ACCEPTED.has(value.trim());
}

/** The 400 problem for a pinned version this API does not serve. */
export function unsupportedApiVersion(value: string): BadRequestError {
  // Echo a bounded, printable copy: the value is attacker-controlled and lands in a JSON string.
  let shown = '';
  for (const char of value.slice(0, MAX_ECHO)) {
    const code = char.codePointAt(0) ?? 0;
    shown += code >= 0x20 && code !== 0x7f ? char : '?';
  }
  return new BadRequestError({
    detail: `${API_VERSION_HEADER} "${shown}" is not served here: this path serves major ${API_MAJOR} only.`,
    extensions: {
      code: 'unsupported_api_version',
      hint: `Send ${API_VERSION_HEADER}: 1 (or omit it) for ${API_PATH}; the policy is at ${POLICY_PAGE}.`,
      supported: ACCEPTED_API_VERSIONS,
    },
  });
}

const API_VERSION_HEADER_KEY = API_VERSION_HEADER.toLowerCase();

/** The preBody hook that refuses a pinned version other than the current major. */
export function apiVersionGuard(): Hooks {
  return {
    preBody(ctx) {
      // The raw header map, not ctx.request: no wrapped Request is built for this check.
      const value =
        (ctx.headers as Readonly<Record<string, string | undefined>>)[API_VERSION_HEADER_KEY] ?? null;
      if (!acceptsApiVersion(value)) throw unsupportedApiVersion(value ?? '');
    },
  };
}

/** The hook that echoes `API-Version: 1` on every response of a JSON API route, errors included. */
export function apiVersionEcho(): Hooks {
  return {
    preBody(ctx) {
      ctx.set.headers.set(API_VERSION_HEADER, API_MAJOR);
    },
  };
}
