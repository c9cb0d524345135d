/**
 * The parts of the OpenAPI 3.1 document model (https://spec.openapis.org/oas/v3.1.1) that Charter
 * emits. Schemas are JSON Schema draft 2020-12, the dialect OpenAPI 3.1 uses by default (§4.8.24).
 */
import type { JsonSchema } from '@charter/core';

/** `x-` members allowed on most objects (§4.9). */
export type Extensions = { [key: `x-${string}`]: unknown };

export interface Contact extends Extensions {
  name?: string;
  url?: string;
  email?: string;
}

export interface License extends Extensions {
  name: string;
  identifier?: string;
  url?: string;
}

/** §4.8.2: `title` and `version` are required. */
export interface Info extends Extensions {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  termsOfService?: string;
  contact?: Contact;
  license?: License;
}

export interface ServerVariable {
  enum?: string[];
  default: string;
  description?: string;
}

export interface Server extends Extensions {
  url: string;
  description?: string;
  variables?: Record<string, ServerVariable>;
}

export interface Tag extends Extensions {
  name: string;
  description?: string;
}

/** §4.8.19: a named example (`value` or `externalValue`). */
export interface Example extends Extensions {
  summary?: string;
  description?: string;
  value?: unknown;
  externalValue?: string;
}

export interface Reference {
  $ref: string;
  summary?: string;
  description?: string;
}

export interface MediaType extends Extensions {
  schema?: JsonSchema;
  examples?: Record<string, Example>;
}

export interface Header extends Extensions {
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema?: JsonSchema;
}

export interface Parameter extends Extensions {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: JsonSchema;
  examples?: Record<string, Example>;
}

export interface RequestBody extends Extensions {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export interface Response extends Extensions {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

/** A security requirement: scheme name to the scopes (or roles) it needs (§4.8.30). */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation extends Extensions {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
  callbacks?: Record<string, Callback>;
  security?: SecurityRequirement[];
}

export type HttpVerb = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export type PathItem = Extensions & { [M in HttpVerb]?: Operation } & {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
};

/** §4.8.18: runtime expression to the Path Item the API calls. */
export type Callback = Record<string, PathItem>;

export interface Components extends Extensions {
  schemas?: Record<string, JsonSchema>;
  securitySchemes?: Record<string, Record<string, unknown>>;
}

/** §4.8.1: the document. */
export interface OpenAPIDocument extends Extensions {
  openapi: string;
  info: Info;
  servers?: Server[];
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: Components;
  tags?: Tag[];
}
