/** Joins a scope prefix and a route path: `/api` + `/users` is `/api/users`, `/api` + `/` is `/api`. */
export function joinPath(prefix: string, path: string): string {
  if (prefix === '') return path;
  if (path === '/') return prefix;
  return prefix + path;
}

/** Validates a group or plugin prefix: empty, or `/segment...` without a trailing slash. */
export function normalisePrefix(prefix: string | undefined, where: string): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
    throw new TypeError(`${where}: prefix must start with "/", got ${JSON.stringify(prefix)}`);
  }
  return prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
}
