/** The document cannot be generated: a schema that cannot describe itself, an unknown security scheme... */
export class OpenAPIError extends Error {
  override readonly name = 'OpenAPIError';
}
