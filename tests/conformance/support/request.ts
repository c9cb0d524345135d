/**
 * A POST Request to `http://charter.local<path>` (the origin `app.request` uses) with a JSON
 * Content-Type unless `headers` gives another; `duplex: 'half'` lets the body be a stream.
 */
export function post(path: string, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`http://charter.local${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}
