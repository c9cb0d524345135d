/**
 * `charter ai`: a compact Markdown catalogue of an API for coding agents: what each operation takes and
 * answers, written as short TypeScript-like types, the named schemas once, and the authentication
 * schemes. Built from the OpenAPI document, so it says exactly what the contract says.
 */
import { deref, refResolver, type RefResolver } from './diff-schema.ts';

type Obj = Record<string, unknown>;
const asObj = (value: unknown): Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Text from the document on one line: controls and Markdown-breaking newlines removed, length capped. */
function inline(value: unknown, max = 300): string {
  if (typeof value !== 'string') return '';
  const text = value
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

const refName = (ref: string): string =>
  ref
    .slice(ref.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');

const KEY = /^[A-Za-z_$][\w$]*$/;

/**
 * A JSON Schema as a short type: `{ id: integer, tags?: string[] }`, `"a" | "b"`, `string(date-time)`,
 * named schemas by name. Deep or wide schemas are cut (`{ ... }`) to keep a line readable.
 */
export function schemaToType(schema: unknown, depth = 0): string {
  const s = asObj(schema);
  if (typeof s.$ref === 'string') return refName(s.$ref);
  if (schema === true || Object.keys(s).length === 0) return 'any';
  if (schema === false) return 'never';
  if (Array.isArray(s.enum))
    return (
      s.enum
        .slice(0, 12)
        .map((v) => JSON.stringify(v))
        .join(' | ') + (s.enum.length > 12 ? ' | ...' : '')
    );
  if (Object.hasOwn(s, 'const')) return JSON.stringify(s.const);
  for (const [key, sep] of [
    ['oneOf', ' | '],
    ['anyOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    if (!Array.isArray(s[key])) continue;
    const members = (s[key] as unknown[]).map((m) => schemaToType(m, depth + 1));
    // The schema's own keywords apply on top of the composition (`allOf: [Base]` plus properties).
    const { [key]: _, ...own } = s;
    if (own.type === undefined && own.properties === undefined && own.items === undefined)
      return members.join(sep);
    const composed = members.length > 1 && sep === ' | ' ? `(${members.join(sep)})` : members.join(sep);
    return `${composed} & ${schemaToType(own, depth)}`;
  }
  const types = Array.isArray(s.type)
    ? (s.type as unknown[])
    : [s.type ?? (s.properties ? 'object' : s.items ? 'array' : 'any')];
  return types
    .map((type) => {
      if (type === 'object') {
        const props = asObj(s.properties);
        const names = Object.keys(props);
        if (names.length === 0)
          return s.additionalProperties
            ? `Record<string, ${schemaToType(s.additionalProperties, depth + 1)}>`
            : 'object';
        if (depth >= 3) return '{ ... }';
        const required = new Set(Array.isArray(s.required) ? s.required : []);
        const fields = names.slice(0, 20).map((name) => {
          const key = KEY.test(name) ? name : JSON.stringify(name);
          return `${key}${required.has(name) ? '' : '?'}: ${schemaToType(props[name], depth + 1)}`;
        });
        if (names.length > 20) fields.push('...');
        return `{ ${fields.join(', ')} }`;
      }
      if (type === 'array') {
        const item = schemaToType(s.items, depth + 1);
        return /[ |&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
      }
      if (typeof type !== 'string') return 'any';
      const format = typeof s.format === 'string' ? `(${s.format})` : '';
      const bounds: string[] = [];
      for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern'] as const) {
        if (s[key] !== undefined)
          bounds.push(`${key} ${typeof s[key] === 'string' ? JSON.stringify(s[key]) : String(s[key])}`);
      }
      return `${type}${format}${bounds.length > 0 && depth === 0 ? ` (${bounds.join(', ')})` : ''}`;
    })
    .join(' | ');
}

function securityText(requirements: unknown): string | undefined {
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined;
  const options = requirements.map((requirement) => {
    const entries = Object.entries(asObj(requirement));
    if (entries.length === 0) return 'none (optional)';
    return entries
      .map(([scheme, scopes]) =>
        Array.isArray(scopes) && scopes.length > 0 ? `${scheme} (${scopes.join(', ')})` : scheme,
      )
      .join(' + ');
  });
  return options.join(' or ');
}

function schemeText(scheme: Obj): string {
  const type = inline(scheme.type);
  if (type === 'http')
    return `HTTP ${inline(scheme.scheme)}${scheme.bearerFormat ? ` (${inline(scheme.bearerFormat)})` : ''}`;
  if (type === 'apiKey') return `API key in ${inline(scheme.in)} \`${inline(scheme.name)}\``;
  if (type === 'oauth2') return 'OAuth 2.0';
  if (type === 'openIdConnect') return `OpenID Connect (${inline(scheme.openIdConnectUrl)})`;
  if (type === 'mutualTLS') return 'mutual TLS (client certificate)';
  return type;
}

function parametersLines(op: Obj, pathItem: Obj, resolve: RefResolver): string[] {
  const groups = new Map<string, string[]>();
  for (const list of [pathItem.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = asObj(deref(raw, resolve));
      if (typeof p.name !== 'string' || typeof p.in !== 'string') continue;
      const optional = p.required === true || p.in === 'path' ? '' : '?';
      const entry = `${p.name}${optional}: ${schemaToType(p.schema)}`;
      groups.set(p.in, [...(groups.get(p.in) ?? []), entry]);
    }
  }
  return [...groups].map(([where, entries]) => `- ${where}: ${entries.join(', ')}`);
}

/** The types of a `content` map, media types that share a type on one line: `Todo (application/json, ...)`. */
function contentText(content: unknown): string {
  const byType = new Map<string, string[]>();
  for (const [mediaType, media] of Object.entries(asObj(content))) {
    const schema = asObj(media).schema;
    const type = schema === undefined ? 'any' : schemaToType(schema);
    byType.set(type, [...(byType.get(type) ?? []), mediaType]);
  }
  if (byType.size === 0) return 'no body';
  return [...byType]
    .map(([type, mediaTypes]) =>
      mediaTypes.length === 1 && mediaTypes[0] === 'application/json'
        ? type
        : `${type} (${mediaTypes.join(', ')})`,
    )
    .join(' or ');
}

/** One line per response, except problem documents: their statuses share one `errors` line. */
function responseLines(responses: unknown, resolve: RefResolver): string[] {
  const lines: string[] = [];
  const problems: string[] = [];
  for (const [status, raw] of Object.entries(asObj(responses))) {
    const content = asObj(asObj(deref(raw, resolve)).content);
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length > 0 && mediaTypes.every((m) => m === 'application/problem+json'))
      problems.push(status);
    else lines.push(`- ${status}: ${contentText(content)}`);
  }
  if (problems.length > 0) lines.push(`- errors (problem+json): ${problems.join(', ')}`);
  return lines;
}

/** A WebSocket route, as `app.introspect()` does not put it in the OpenAPI document. */
export interface AiDumpExtraRoute {
  method: string;
  path: string;
  note: string;
}

/**
 * The Markdown catalogue of `document` (an OpenAPI 3.x document): title, servers, authentication
 * schemes, one section per operation (parameters, body, responses, auth) and the named schemas.
 */
export function buildAiDump(document: unknown, extra: readonly AiDumpExtraRoute[] = []): string {
  const doc = asObj(document);
  const resolve = refResolver(doc);
  const info = asObj(doc.info);
  const lines: string[] = [];
  lines.push(`# ${inline(info.title) || 'API'} ${inline(info.version)}`.trimEnd(), '');
  const description = inline(info.description, 600);
  if (description) lines.push(description, '');
  lines.push(
    `OpenAPI ${inline(doc.openapi)}. Types are TypeScript-like: \`name?\` is optional, named types are under Schemas; ` +
      'errors are RFC 9457 problem documents (`application/problem+json`).',
    '',
  );
  const servers = Array.isArray(doc.servers)
    ? doc.servers.map((s) => inline(asObj(s).url)).filter(Boolean)
    : [];
  if (servers.length > 0) lines.push(`Servers: ${servers.join(', ')}`, '');

  const schemes = Object.entries(asObj(asObj(doc.components).securitySchemes));
  if (schemes.length > 0) {
    lines.push('## Auth', '');
    for (const [name, scheme] of schemes)
      lines.push(`- ${name}: ${schemeText(asObj(deref(scheme, resolve)))}`);
    const global = securityText(doc.security);
    if (global) lines.push(`- default for every operation: ${global}`);
    lines.push('');
  }

  lines.push('## Operations', '');
  let count = 0;
  for (const [path, rawItem] of Object.entries(asObj(doc.paths))) {
    const pathItem = asObj(rawItem);
    for (const method of METHODS) {
      if (pathItem[method] === undefined) continue;
      count++;
      const op = asObj(pathItem[method]);
      const id = inline(op.operationId);
      lines.push(
        `### ${method.toUpperCase()} ${inline(path)}${id ? ` (${id})` : ''}${op.deprecated ? ' [deprecated]' : ''}`,
      );
      const summary = inline(op.summary) || inline(op.description);
      if (summary) lines.push(summary);
      const auth = securityText(op.security ?? doc.security);
      lines.push(`- auth: ${auth ?? 'none'}`);
      lines.push(...parametersLines(op, pathItem, resolve));
      if (op.requestBody !== undefined) {
        const body = asObj(deref(op.requestBody, resolve));
        lines.push(`- body${body.required === true ? '' : ' (optional)'}: ${contentText(body.content)}`);
      }
      lines.push(...responseLines(op.responses, resolve));
      lines.push('');
    }
  }
  for (const route of extra) {
    count++;
    lines.push(`### ${inline(route.method)} ${inline(route.path)}`, `- ${inline(route.note)}`, '');
  }
  if (count === 0) lines.push('No operations.', '');

  const schemas = Object.entries(asObj(asObj(doc.components).schemas));
  if (schemas.length > 0) {
    lines.push('## Schemas', '');
    for (const [name, schema] of schemas) lines.push(`- ${name}: ${schemaToType(schema, 0)}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
