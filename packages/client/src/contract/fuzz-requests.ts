/**
 * The requests the contract fuzzer sends to one operation, made from the operation's own schemas in
 * the OpenAPI document: valid ones (random values each schema admits), then invalid ones, one field
 * at a time (wrong type, empty, too long, control characters, an unknown member), the rest valid.
 */
import type { JsonSchema } from '@charter/core';
import { invalidValues, type Random, validValue } from './fuzz-values.ts';

/** A request the fuzzer sent, with what it needs to be sent again. */
export interface FuzzRequest {
  readonly method: string;
  /** Path and query, percent-encoded, as sent. */
  readonly url: string;
  /** The origin it was sent to (`fuzz.origin`); absent until the run sends it. */
  readonly origin?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, if any. */
  readonly body?: string;
  /** The run's seed, and this request's place in the route's sequence for that seed. */
  readonly seed: number;
  readonly index: number;
  /** What the request tries: `valid`, or the field and how it is wrong (`query.limit: too long`). */
  readonly intent: string;
  readonly valid: boolean;
}

/** The parts of an OpenAPI operation the fuzzer reads. */
export interface FuzzOperation {
  readonly parameters?: readonly {
    readonly name: string;
    readonly in: string;
    readonly required?: boolean;
    readonly schema?: unknown;
    readonly 'x-charter-wildcard'?: boolean;
  }[];
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: unknown }>> };
  readonly responses?: Readonly<Record<string, unknown>>;
  readonly security?: readonly Readonly<Record<string, unknown>>[];
}

type Parameter = NonNullable<FuzzOperation['parameters']>[number];

/** A request before it is encoded: a value per parameter, and the body value. */
interface Draft {
  readonly values: Map<Parameter, unknown>;
  body: { readonly type: string; readonly value: unknown } | undefined;
  /** A raw body overriding the encoded one (malformed JSON), with its media type. */
  raw?: { readonly type: string; readonly text: string };
  readonly extraHeaders: Record<string, string>;
  readonly extraQuery: [string, string][];
  /** Appended to the path unencoded (percent-encoded control characters). */
  rawPath?: { readonly parameter: Parameter; readonly text: string };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Media types the fuzzer can write a body in, most preferred first. */
function bodyMediaType(content: Readonly<Record<string, unknown>>): string | undefined {
  const types = Object.keys(content);
  return (
    types.find((t) => t.toLowerCase() === 'application/json') ??
    types.find((t) => /^application\/[^;]*\+json/i.test(t)) ??
    types.find((t) => t.toLowerCase() === 'application/x-www-form-urlencoded') ??
    types.find((t) => t.toLowerCase() === 'multipart/form-data') ??
    types.find((t) => t.toLowerCase().startsWith('text/'))
  );
}

function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

const BOUNDARY = 'charter-fuzz-boundary-7MA4YWxkTrZu0gW';

function formEntries(value: unknown): [string, string][] {
  if (!isObject(value)) return [['value', wireText(value)]];
  const out: [string, string][] = [];
  for (const [name, member] of Object.entries(value)) {
    if (Array.isArray(member)) for (const item of member) out.push([name, wireText(item)]);
    else if (member !== undefined) out.push([name, wireText(member)]);
  }
  return out;
}

/** The body as text in its media type. */
function encodeBody(type: string, value: unknown): { text: string; contentType: string } {
  const essence = type.toLowerCase().split(';')[0]?.trim() ?? '';
  if (essence === 'application/x-www-form-urlencoded') {
    return { text: new URLSearchParams(formEntries(value)).toString(), contentType: type };
  }
  if (essence === 'multipart/form-data') {
    // RFC 7578 §4: one part per field, CRLF line ends, the boundary named in the media type.
    let text = '';
    for (const [name, field] of formEntries(value)) {
      text += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${field}\r\n`;
    }
    return { text: `${text}--${BOUNDARY}--\r\n`, contentType: `multipart/form-data; boundary=${BOUNDARY}` };
  }
  if (essence.startsWith('text/')) return { text: wireText(value), contentType: type };
  return { text: JSON.stringify(value) ?? 'null', contentType: type };
}

/** A copy of `value` with the member at `path` set (objects made on the way where there are none). */
function withMember(value: unknown, path: readonly string[], member: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return member;
  const object = isObject(value) ? { ...value } : {};
  object[head] = withMember(object[head], rest, member);
  return object;
}

/** Header values cannot carry NUL, CR or LF at all (Fetch): those become other control characters. */
function headerSafe(text: string): string {
  return text.replace(/[\0\r\n]/g, '\u0001');
}

/** Builds the requests for one operation; `budget` caps how many. */
export class OperationRequests {
  readonly #parameters: readonly Parameter[];
  readonly #bodyType: string | undefined;
  readonly #bodySchema: unknown;

  constructor(
    readonly method: string,
    readonly template: string,
    readonly operation: FuzzOperation,
    readonly root: unknown,
    readonly random: Random,
  ) {
    this.#parameters = (operation.parameters ?? []).filter((p) => ['path', 'query', 'header'].includes(p.in));
    const content = operation.requestBody?.content ?? {};
    this.#bodyType = bodyMediaType(content);
    this.#bodySchema = this.#bodyType === undefined ? undefined : content[this.#bodyType]?.schema;
  }

  /**
   * `budget` requests: valid ones first (a third, at least one), then invalid ones in a seeded order,
   * then valid ones again until the budget is spent.
   */
  build(budget: number, seed: number): FuzzRequest[] {
    const drafts: { intent: string; valid: boolean; draft: Draft }[] = [];
    const validCount = Math.max(1, Math.ceil(budget / 3));
    for (let i = 0; i < validCount; i++) {
      const draft = this.#validDraft();
      if (draft === undefined) break;
      drafts.push({ intent: 'valid', valid: true, draft });
    }
    const invalid = this.#invalidDrafts();
    // A seeded shuffle (Fisher-Yates), so a small budget still reaches every kind of field over seeds.
    for (let i = invalid.length - 1; i > 0; i--) {
      const j = this.random.int(0, i);
      [invalid[i], invalid[j]] = [
        invalid[j] as (typeof invalid)[number],
        invalid[i] as (typeof invalid)[number],
      ];
    }
    drafts.push(...invalid);
    // Fewer fields to break than the budget: the rest are more valid requests, other random values.
    while (drafts.length < budget) {
      const draft = this.#validDraft();
      if (draft === undefined) break;
      drafts.push({ intent: 'valid', valid: true, draft });
    }
    return drafts
      .slice(0, budget)
      .map((entry, index) => this.#encode(entry.draft, entry.intent, entry.valid, seed, index));
  }

  #validDraft(optional = true): Draft | undefined {
    const values = new Map<Parameter, unknown>();
    for (const parameter of this.#parameters) {
      if (parameter.required !== true && (!optional || this.random.chance(0.5))) continue;
      const made = validValue(parameter.schema ?? { type: 'string' }, this.random, this.root);
      if (made === undefined) return undefined;
      values.set(parameter, made.value);
    }
    let body: Draft['body'];
    if (this.#bodyType !== undefined) {
      const made = validValue(this.#bodySchema ?? {}, this.random, this.root);
      if (made === undefined) return undefined;
      body = { type: this.#bodyType, value: made.value };
    }
    return { values, body, extraHeaders: {}, extraQuery: [] };
  }

  #invalidDrafts(): { intent: string; valid: boolean; draft: Draft }[] {
    const out: { intent: string; valid: boolean; draft: Draft }[] = [];
    const base = () => this.#validDraft(false);
    for (const parameter of this.#parameters) {
      const where = `${parameter.in === 'header' ? 'headers' : parameter.in}.${parameter.name}`;
      for (const mutation of invalidValues(parameter.schema, this.root, this.random)) {
        // An empty path segment is another path (another route, or none): not this operation's answer.
        if (parameter.in === 'path' && mutation.label === 'empty') continue;
        const draft = base();
        if (draft === undefined) return out;
        if (parameter.in === 'path' && mutation.label === 'control characters') {
          draft.rawPath = { parameter, text: 'a%00b%07c%1B' };
        } else {
          draft.values.set(parameter, mutation.value);
        }
        out.push({ intent: `${where}: ${mutation.label}`, valid: false, draft });
      }
    }
    const extras: [string, (draft: Draft) => void][] = [
      ['query: unknown member', (d) => d.extraQuery.push(['charterFuzzUnknown', '1'])],
      ['query: bad percent-encoding', (d) => d.extraQuery.push(['%zz', '%E0%A4%A'])],
      ['headers.authorization: bearer without a token', (d) => (d.extraHeaders.authorization = 'Bearer ')],
      ['headers.authorization: malformed', (d) => (d.extraHeaders.authorization = 'Basic !!!')],
      [
        'headers: control characters in an unknown field',
        (d) => (d.extraHeaders['x-charter-fuzz'] = 'a\u0001b'),
      ],
    ];
    for (const [intent, apply] of extras) {
      const draft = base();
      if (draft === undefined) return out;
      apply(draft);
      out.push({ intent, valid: false, draft });
    }
    if (this.#bodyType !== undefined) out.push(...this.#bodyDrafts(base));
    return out;
  }

  #bodyDrafts(base: () => Draft | undefined): { intent: string; valid: boolean; draft: Draft }[] {
    const out: { intent: string; valid: boolean; draft: Draft }[] = [];
    const type = this.#bodyType as string;
    const add = (intent: string, change: (draft: Draft, value: unknown) => void) => {
      const draft = base();
      if (draft === undefined) return;
      change(draft, draft.body?.value);
      out.push({ intent, valid: false, draft });
    };
    add('body: malformed JSON', (d) => (d.raw = { type: 'application/json', text: '{"unterminated": ' }));
    add('body: media type not accepted', (d) => (d.raw = { type: 'application/x-charter-fuzz', text: 'x' }));
    add('body: empty', (d) => (d.raw = { type, text: '' }));
    const members = this.#bodyMembers(this.#bodySchema, [], 0);
    add('body: unknown member', (d, value) => {
      d.body = {
        type,
        value: isObject(value) ? { ...value, charterFuzzUnknown: 'x' } : { charterFuzzUnknown: 'x' },
      };
    });
    for (const [path, schema] of members) {
      const where = `body.${path.join('.')}`;
      if (path.length > 1) {
        add(`${where.slice(0, where.lastIndexOf('.'))}: unknown member`, (d, value) => {
          d.body = { type, value: withMember(value, [...path.slice(0, -1), 'charterFuzzUnknown'], 'x') };
        });
      }
      for (const mutation of invalidValues(schema, this.root, this.random)) {
        add(`${where}: ${mutation.label}`, (d, value) => {
          d.body = { type, value: withMember(value, path, mutation.value) };
        });
      }
    }
    if (members.length === 0) {
      for (const mutation of invalidValues(this.#bodySchema, this.root, this.random)) {
        add(`body: ${mutation.label}`, (d) => (d.body = { type, value: mutation.value }));
      }
    }
    return out;
  }

  /** The members of an object body schema, nested ones included (up to 3 levels), `$ref`s followed. */
  #bodyMembers(node: unknown, path: readonly string[], depth: number): [string[], unknown][] {
    let schema = node;
    for (let hops = 0; hops < 8 && isObject(schema) && typeof schema.$ref === 'string'; hops++) {
      const ref = schema.$ref as string;
      if (!ref.startsWith('#/')) return [];
      let target: unknown = this.root;
      for (const key of ref.slice(2).split('/')) target = isObject(target) ? target[key] : undefined;
      schema = target;
    }
    if (!isObject(schema) || !isObject(schema.properties) || depth >= 3) return [];
    const out: [string[], unknown][] = [];
    for (const [name, member] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      if (name === '__proto__') continue;
      const at = [...path, name];
      out.push([at, member]);
      out.push(...this.#bodyMembers(member, at, depth + 1));
    }
    return out;
  }

  #encode(draft: Draft, intent: string, valid: boolean, seed: number, index: number): FuzzRequest {
    let path = this.template;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const parameter of this.#parameters) {
      const placeholder = `{${parameter.name}}`;
      if (parameter.in === 'path') {
        let text: string;
        if (draft.rawPath?.parameter === parameter) text = draft.rawPath.text;
        else {
          const value = wireText(draft.values.get(parameter) ?? 'x');
          text =
            parameter['x-charter-wildcard'] === true
              ? value.split('/').map(encodeURIComponent).join('/')
              : encodeURIComponent(value);
        }
        path = path.replace(placeholder, text);
        continue;
      }
      if (!draft.values.has(parameter)) continue;
      const value = draft.values.get(parameter);
      if (parameter.in === 'query') {
        if (Array.isArray(value)) for (const item of value) query.append(parameter.name, wireText(item));
        else query.append(parameter.name, wireText(value));
      } else {
        headers[parameter.name.toLowerCase()] = headerSafe(wireText(value));
      }
    }
    for (const [name, value] of Object.entries(draft.extraHeaders)) headers[name] = value;
    let search = query.toString();
    for (const [name, value] of draft.extraQuery) search += `${search === '' ? '' : '&'}${name}=${value}`;
    let body: string | undefined;
    if (draft.raw !== undefined) {
      body = draft.raw.text;
      headers['content-type'] = draft.raw.type;
    } else if (draft.body !== undefined) {
      const encoded = encodeBody(draft.body.type, draft.body.value);
      body = encoded.text;
      headers['content-type'] = encoded.contentType;
    }
    const url = search === '' ? path : `${path}?${search}`;
    const request: FuzzRequest = { method: this.method, url, headers, seed, index, intent, valid };
    return body === undefined ? request : { ...request, body };
  }
}
