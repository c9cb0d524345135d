/**
 * Part builders (A2A 1.0 `Part`: exactly one of `text`, `raw`, `url`, `data`, plus `mediaType`) and
 * the helpers the handler uses to read parts and mint messages.
 */
import type { A2aDataPart, A2aMessage, A2aPart, A2aTextPart } from './types.ts';

/** A text part: `{ text, mediaType? }`. */
export function a2aText(text: string, mediaType?: string): A2aTextPart {
  if (typeof text !== 'string') throw new TypeError('a2aText: text must be a string');
  if (mediaType !== undefined && typeof mediaType !== 'string')
    throw new TypeError('a2aText: mediaType must be a string');
  return mediaType === undefined ? { text } : { text, mediaType };
}

/** A structured data part: `{ data, mediaType? }` (the data must survive JSON.stringify). */
export function a2aData(data: unknown, mediaType?: string): A2aDataPart {
  if (
    data === undefined ||
    typeof data === 'function' ||
    typeof data === 'symbol' ||
    typeof data === 'bigint'
  )
    throw new TypeError('a2aData: data must be a JSON value');
  if (mediaType !== undefined && typeof mediaType !== 'string')
    throw new TypeError('a2aData: mediaType must be a string');
  return mediaType === undefined ? { data } : { data, mediaType };
}

/** The text of every text part of a message, joined with a newline (for agents that only read text). */
export function messageText(message: Pick<A2aMessage, 'parts'>): string {
  const texts: string[] = [];
  for (const part of message.parts)
    if ('text' in part && typeof part.text === 'string') texts.push(part.text);
  return texts.join('\n');
}

/** A new agent message with a fresh id. */
export function agentMessage(parts: A2aPart[], contextId: string, taskId?: string): A2aMessage {
  const message: A2aMessage = { messageId: crypto.randomUUID(), role: 'ROLE_AGENT', parts, contextId };
  if (taskId !== undefined) message.taskId = taskId;
  return message;
}

/** Now as ISO-8601 UTC with milliseconds (A2A 1.0 timestamps). */
export function nowIso(): string {
  return new Date().toISOString();
}
