/** Media types of Content-Type values (RFC 9110 §8.3.1), without a dependency on the core's pipeline. */

/** The media type of a Content-Type value: lower case, parameters dropped; undefined when absent. */
export function mediaType(contentType: string | null | undefined): string | undefined {
  if (contentType === null || contentType === undefined) return undefined;
  const semi = contentType.indexOf(';');
  const essence = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return essence.length === 0 ? undefined : essence;
}

/** `application/json` and the structured syntax suffix `+json` (RFC 6839 §3.1). */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || type.endsWith('+json'));
}

/** Whether an allowlist entry (`type/subtype`, `type/*` or `*\/*`) admits a media type. */
export function admits(allowed: readonly string[], type: string): boolean {
  for (const raw of allowed) {
    const entry = raw.toLowerCase();
    if (entry === type || entry === '*/*') return true;
    if (entry.endsWith('/*') && type.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}
