/**
 * The friendly input of `sendMessage`, turned into an A2A 1.0 `SendMessageRequest` (§4 Message, Part):
 * a user message (`ROLE_USER`) with a fresh `messageId` (a UUID, §4: creator-generated) and parts that
 * each carry exactly one content member.
 */
import type {
  A2aMessage,
  A2aMetadata,
  A2aPart,
  A2aSendMessageConfiguration,
  A2aSendMessageRequest,
} from '../types.ts';

/** A message described by its parts and the ids that place it in a conversation. */
export interface A2aSendMessageInput {
  /** The message as one text part; give this or `parts`. */
  text?: string;
  /** The message's parts (at least one); give this or `text`. */
  parts?: readonly A2aPart[];
  /** Conversation to continue (returned by the agent on an earlier task or message). */
  contextId?: string;
  /** Task to continue, e.g. one waiting in `TASK_STATE_INPUT_REQUIRED`. */
  taskId?: string;
  /** Other tasks this message refers to. */
  referenceTaskIds?: readonly string[];
  /** Default: `crypto.randomUUID()`. */
  messageId?: string;
  /** Metadata of the message. */
  metadata?: A2aMetadata;
  /** Extension URIs the message uses. */
  extensions?: readonly string[];
  /** `acceptedOutputModes`, `historyLength`, `returnImmediately`. */
  configuration?: A2aSendMessageConfiguration;
  /** Metadata of the request (not of the message). */
  requestMetadata?: A2aMetadata;
  /** Tenant; default the chosen interface's `tenant`. */
  tenant?: string;
}

/** What `sendMessage` accepts: a text, a list of parts, a described message, or a wire `SendMessageRequest`. */
export type A2aMessageInput = string | readonly A2aPart[] | A2aSendMessageInput | A2aSendMessageRequest;

const CONTENT_MEMBERS = ['text', 'raw', 'url', 'data'] as const;

function fail(why: string): never {
  throw new TypeError(`sendMessage: ${why}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkParts(parts: unknown, where: string): A2aPart[] {
  if (!Array.isArray(parts) || parts.length === 0) fail(`${where} must be a non-empty array of parts`);
  parts.forEach((part: unknown, index) => {
    if (!isObject(part)) fail(`${where}[${index}] must be an object`);
    const members = CONTENT_MEMBERS.filter((name) => part[name] !== undefined);
    // A2A 1.0 Part: the content is a oneof, so exactly one member decides the kind.
    if (members.length !== 1) fail(`${where}[${index}] must have exactly one of text, raw, url, data`);
    const member = members[0] as (typeof CONTENT_MEMBERS)[number];
    if (member !== 'data' && typeof part[member] !== 'string')
      fail(`${where}[${index}].${member} must be a string`);
  });
  return [...(parts as A2aPart[])];
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') fail(`${name} must be a string`);
  return value as string | undefined;
}

function optionalStrings(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    fail(`${name} must be an array of strings`);
  }
  return [...(value as string[])];
}

function optionalObject<T>(value: unknown, name: string): T | undefined {
  if (value !== undefined && !isObject(value)) fail(`${name} must be an object`);
  return value as T | undefined;
}

function fromDescription(input: A2aSendMessageInput): A2aSendMessageRequest {
  if ((input.text === undefined) === (input.parts === undefined)) fail('give exactly one of text and parts');
  if (input.text !== undefined && typeof input.text !== 'string') fail('text must be a string');
  const message: A2aMessage = {
    messageId: optionalString(input.messageId, 'messageId') ?? crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: input.text !== undefined ? [{ text: input.text }] : checkParts(input.parts, 'parts'),
  };
  const contextId = optionalString(input.contextId, 'contextId');
  const taskId = optionalString(input.taskId, 'taskId');
  const referenceTaskIds = optionalStrings(input.referenceTaskIds, 'referenceTaskIds');
  const extensions = optionalStrings(input.extensions, 'extensions');
  const metadata = optionalObject<A2aMetadata>(input.metadata, 'metadata');
  if (contextId !== undefined) message.contextId = contextId;
  if (taskId !== undefined) message.taskId = taskId;
  if (referenceTaskIds !== undefined) message.referenceTaskIds = referenceTaskIds;
  if (extensions !== undefined) message.extensions = extensions;
  if (metadata !== undefined) message.metadata = metadata;
  const request: A2aSendMessageRequest = { message };
  const configuration = optionalObject<A2aSendMessageConfiguration>(input.configuration, 'configuration');
  const requestMetadata = optionalObject<A2aMetadata>(input.requestMetadata, 'requestMetadata');
  const tenant = optionalString(input.tenant, 'tenant');
  if (configuration !== undefined) request.configuration = configuration;
  if (requestMetadata !== undefined) request.metadata = requestMetadata;
  if (tenant !== undefined) request.tenant = tenant;
  return request;
}

function fromWire(input: A2aSendMessageRequest): A2aSendMessageRequest {
  const message: unknown = input.message;
  if (!isObject(message)) fail('message must be an object');
  if (typeof message.messageId !== 'string' || message.messageId === '')
    fail('message.messageId must be a string');
  if (typeof message.role !== 'string') fail('message.role must be a string such as "ROLE_USER"');
  checkParts(message.parts, 'message.parts');
  return input;
}

/**
 * Builds the `SendMessage` params. Throws a `TypeError` for input that could never be a valid message
 * (no parts, a part with zero or two content members, a non-string id); the agent judges the rest.
 */
export function toSendMessageRequest(input: A2aMessageInput): A2aSendMessageRequest {
  if (typeof input === 'string')
    return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: input }] } };
  if (Array.isArray(input)) {
    return {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: checkParts(input, 'parts') },
    };
  }
  if (!isObject(input)) fail('input must be a string, an array of parts or an object');
  return 'message' in input
    ? fromWire(input as unknown as A2aSendMessageRequest)
    : fromDescription(input as A2aSendMessageInput);
}
