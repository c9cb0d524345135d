/**
 * JSON Schemas of JSON-RPC 2.0 messages for the OpenAPI documents of the endpoints that speak it
 * (JSON-RPC 2.0 §4 request, §5 response). Each protocol module says what its messages require.
 */

/** A request object: `jsonrpc`, `id`, `method`, `params`; `required` lists the members the protocol needs. */
export function jsonRpcRequestSchema(description: string, required: readonly string[]) {
  return {
    type: 'object',
    description,
    required,
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'] },
      // The parser refuses an empty method (-32600): the schema says so too.
      method: { type: 'string', minLength: 1 },
      params: { type: 'object' },
    },
  } as const;
}

/** A response object: `result` or `error`; `errorData` is the schema of `error.data`. */
export function jsonRpcResponseSchema(description: string, required: readonly string[], errorData: object) {
  return {
    type: 'object',
    description,
    required,
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      result: { type: 'object' },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data: errorData },
      },
    },
  } as const;
}
