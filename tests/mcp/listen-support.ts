/**
 * What the subscriptions/listen tests share: the request body, and a reader of the event stream that
 * keeps comment lines (keepalives) apart from `message` events.
 */
import { expect } from 'bun:test';
import { modern, type RpcBody } from './support.ts';

export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A modern `subscriptions/listen` request opting in to `notifications`. */
export function listenBody(notifications: unknown, id: string | number = 'listen-1'): RpcBody {
  return modern('subscriptions/listen', { notifications } as Record<string, unknown>, id);
}

/** One block of the stream: a comment line or a JSON-RPC message. */
export type StreamItem = { readonly comment: string } | { readonly message: Record<string, unknown> };

/** Reads an SSE body block by block (HTML "Server-sent events" §9.2.6: blocks end with a blank line). */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (body === null) throw new Error('the answer has no body');
    this.#reader = body.getReader();
  }

  /** The next block; undefined when the stream ended. Fails after `timeoutMs`. */
  async next(timeoutMs = 10_000): Promise<StreamItem | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const lines = block.split('\n');
        if (lines.every((line) => line.startsWith(':'))) return { comment: lines.join('\n') };
        expect(lines[0]).toBe('event: message');
        const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
        expect(data).toHaveLength(1);
        return { message: JSON.parse(data[0] as string) as Record<string, unknown> };
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('nothing on the stream in time');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('nothing on the stream in time')), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) {
        expect(this.#buffer).toBe('');
        return undefined;
      }
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next JSON-RPC message, skipping comment lines; undefined when the stream ended. */
  async message(timeoutMs = 10_000): Promise<Record<string, unknown> | undefined> {
    for (;;) {
      const item = await this.next(timeoutMs);
      if (item === undefined) return undefined;
      if ('message' in item) return item.message;
    }
  }

  /** Closes the stream from the client's side (how a client cancels a listen over HTTP). */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

/** Asserts the answer is a listen stream (status and headers) and returns its reader. */
export function expectEventStream(res: Response): EventReader {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-accel-buffering')).toBe('no');
  return new EventReader(res.body);
}

/** Reads the acknowledgement: the first message, tagged with `id`; returns its honoured filter. */
export async function expectAcknowledged(
  reader: EventReader,
  id: string | number,
): Promise<Record<string, unknown>> {
  const first = await reader.next();
  expect(first !== undefined && 'message' in first).toBe(true);
  const ack = (first as { message: Record<string, unknown> }).message;
  expect(ack.jsonrpc).toBe('2.0');
  expect(ack.method).toBe('notifications/subscriptions/acknowledged');
  expect(ack.id).toBeUndefined();
  const params = ack.params as { _meta: Record<string, unknown>; notifications: Record<string, unknown> };
  expect(params._meta).toEqual({ [SUBSCRIPTION_ID]: id });
  return params.notifications;
}

/** `notifications/resources/updated` for `uri` on the stream `id`. */
export function updated(uri: string, id: string | number): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    method: 'notifications/resources/updated',
    params: { uri, _meta: { [SUBSCRIPTION_ID]: id } },
  };
}

/** Waits until `check` holds (a cleanup that runs on a later turn), failing after `timeoutMs`. */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await Bun.sleep(5);
  }
}
