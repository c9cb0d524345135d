/**
 * Answers an adapter can write without a `Response` object. On Node, building a Fetch `Response`
 * (undici) costs more than the rest of a small route's work: a body stream, a header list copied from
 * the prebuilt set and validated name by name. An adapter that writes to a socket itself (charter/node)
 * asks for planned answers (`WIRE_ANSWERS` on its Request); the pipeline then answers the common cases
 * (a route's serialised body on its prebuilt header set, the pipeline's own problem documents) with a
 * `PlannedResponse`: the status, the header lines as one flat list, and the text, decided once per
 * declared status (respond.ts) or per App (dispatch.ts).
 *
 * A `PlannedResponse` is still a Response to everyone else: `instanceof Response` holds, and status,
 * ok and statusText are read from the plan; anything that touches the headers or the body (an onSend
 * hook, HEAD handling, a test) builds the real Response once and is answered by it from then on. The
 * adapter writes the plan only while nobody did (`plannedAnswer`): once built, the real Response
 * (which hooks may have changed) is what goes out.
 */

import { isHttpToken } from '../security/header-guards.ts';

/** The request property an adapter sets (to true) to receive planned answers from the pipeline. */
export const WIRE_ANSWERS: unique symbol = Symbol('charter.wireAnswers');

/** Whether the adapter that made `request` writes planned answers itself. */
export function wantsPlannedAnswers(request: Request): boolean {
  return (request as { [WIRE_ANSWERS]?: boolean })[WIRE_ANSWERS] === true;
}

/** A header set prebuilt once: as `Headers` for the real Response, as flat lines for the wire. */
export interface WireHeaders {
  readonly headers: Headers;
  /** `[name, value, name, value...]`, lower-case names, as `Headers` iterates them. */
  readonly lines: readonly string[];
}

/**
 * A fixed header set given as fields: its lines now, its `Headers` on first use. On Node, `Headers`,
 * `Request` and `Response` are undici's, which Node loads the first time any of them is named (about
 * 35 ms); an App served by charter/node writes planned answers from the lines and never needs them.
 */
class FieldBlock implements WireHeaders {
  readonly lines: readonly string[];
  #headers: Headers | undefined = undefined;

  constructor(lines: readonly string[]) {
    this.lines = lines;
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      const headers = new Headers();
      for (let i = 0; i < this.lines.length; i += 2) {
        headers.append(this.lines[i] as string, this.lines[i + 1] as string);
      }
      this.#headers = headers;
    }
    return this.#headers;
  }
}

const isHttpWhitespace = (code: number): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * A value as `Headers` keeps it (Fetch §2.2.2 "normalize": leading and trailing HTTP whitespace
 * removed), or undefined when `Headers` would refuse it: NUL, CR or LF inside, or a code unit above
 * 0xFF (no ByteString).
 */
function normalizedValue(raw: string): string | undefined {
  let start = 0;
  let end = raw.length;
  while (start < end && isHttpWhitespace(raw.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(raw.charCodeAt(end - 1))) end--;
  for (let i = start; i < end; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x00 || code === 0x0a || code === 0x0d || code > 0xff) return undefined;
  }
  return raw.slice(start, end);
}

/**
 * The wire form of `fields`, each set in turn as `Headers#set` would (a later field replaces an
 * earlier one of the same name), with the lines `Headers` would iterate: names in lower case, in
 * ascending order (Fetch §2.2.2 "sort and combine"; one value per name, since each was set).
 * A name that is no token or a value that is no field value throws the TypeError `Headers` would,
 * at the same moment: when the set is built, not when it is first sent.
 */
export function fieldBlock(fields: Iterable<readonly [string, string]>): WireHeaders {
  const values = new Map<string, string>();
  for (const [name, raw] of fields) {
    const value = normalizedValue(raw);
    if (!isHttpToken(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
    if (value === undefined) throw new TypeError(`Invalid value for header ${JSON.stringify(name)}`);
    values.set(name.toLowerCase(), value);
  }
  const lines: string[] = [];
  for (const name of [...values.keys()].sort()) lines.push(name, values.get(name) as string);
  return Object.freeze(new FieldBlock(Object.freeze(lines)));
}

/** What an adapter writes for a planned answer: the status line, the header lines, the content. */
export interface PlannedAnswer {
  readonly status: number;
  readonly lines: readonly string[];
  /** The whole content as text; null for none. */
  readonly payload: string | null;
}

const STATUS_TEXT_NONE = '';

/**
 * A Response in waiting: see the module comment. Made by the pipeline only; its prototype chain runs
 * through `Response.prototype`, so `instanceof Response` holds, while every member that needs the
 * real object builds it.
 */
export class PlannedResponse {
  readonly #status: number;
  readonly #headers: WireHeaders;
  readonly #payload: string | null;
  #real: Response | undefined = undefined;

  constructor(status: number, headers: WireHeaders, payload: string | null) {
    this.#status = status;
    this.#headers = headers;
    this.#payload = payload;
  }

  /** The Response itself, built on first need; later reads get the same object. */
  materialize(): Response {
    let real = this.#real;
    if (real === undefined) {
      linkPlannedResponses();
      // `new Response(body, { headers })` copies the prebuilt set: changes to it stay on this answer.
      real = new Response(this.#payload, { status: this.#status, headers: this.#headers.headers });
      this.#real = real;
    }
    return real;
  }

  /** The plan, while nobody has built (and so possibly changed) the real Response. */
  answer(): PlannedAnswer | undefined {
    if (this.#real !== undefined) return undefined;
    return { status: this.#status, lines: this.#headers.lines, payload: this.#payload };
  }

  /**
   * The text, while the body is untouched: a Response's body cannot be swapped, so even once the real
   * Response was built (its headers read or changed), an unread body is still exactly this text.
   */
  untouchedPayload(): string | undefined {
    const real = this.#real;
    if (this.#payload === null) return undefined;
    if (real !== undefined && (real.bodyUsed || real.body === null || real.body.locked)) return undefined;
    return this.#payload;
  }

  get status(): number {
    return this.#status;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  get statusText(): string {
    return this.#real?.statusText ?? STATUS_TEXT_NONE;
  }
  get type(): Response['type'] {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  get headers(): Headers {
    return this.materialize().headers;
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.materialize().body;
  }
  get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.materialize().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.materialize().blob();
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.materialize().bytes();
  }
  formData(): Promise<FormData> {
    return this.materialize().formData();
  }
  json(): Promise<unknown> {
    return this.materialize().json();
  }
  text(): Promise<string> {
    return this.materialize().text();
  }
  clone(): Response {
    return this.materialize().clone();
  }
}

// `Object.prototype.toString` sees a Response.
Object.defineProperty(PlannedResponse.prototype, Symbol.toStringTag, { value: 'Response' });

let linkedToResponse = false;

/**
 * Puts `Response.prototype` under every planned answer, so `instanceof Response` holds; members the
 * class does not define (none today) would reach Response.prototype and fail its brand check loudly,
 * never silently. Not done at import: on Node, naming `Response` loads undici (about 35 ms of a
 * start), and charter/node writes planned answers without user code ever holding one. Whatever hands
 * one to user code (response hooks) or builds the real Response calls this first.
 */
export function linkPlannedResponses(): void {
  if (linkedToResponse) return;
  linkedToResponse = true;
  Object.setPrototypeOf(PlannedResponse.prototype, Response.prototype);
}

/**
 * The answer an adapter may write itself: a planned answer nobody has touched. Undefined for any
 * other Response (write it the usual way).
 */
export function plannedAnswer(response: Response): PlannedAnswer | undefined {
  const candidate: unknown = response;
  return candidate instanceof PlannedResponse ? candidate.answer() : undefined;
}

/**
 * The real Response for `response`: itself, or a planned one built now. For callers that hand the
 * answer to code that needs the platform's own object (a runtime's native server, a cache).
 */
export function realResponse(response: Response): Response {
  const candidate: unknown = response;
  return candidate instanceof PlannedResponse ? candidate.materialize() : response;
}
