/** A path parameter of a route path, in order. */
export interface PathParam {
  readonly name: string;
  /** `*name`: the rest of the path, `/` included. */
  readonly wildcard: boolean;
}

/** The router syntax as an OpenAPI path template: `/users/:id/files/*path` gives `/users/{id}/files/{path}`. */
export function toOpenAPIPath(path: string): { template: string; params: PathParam[] } {
  const params: PathParam[] = [];
  const segments = path.split('/').map((segment) => {
    const marker = segment[0];
    if (marker !== ':' && marker !== '*') return segment;
    const name = segment.slice(1);
    params.push({ name, wildcard: marker === '*' });
    return `{${name}}`;
  });
  return { template: segments.join('/'), params };
}
