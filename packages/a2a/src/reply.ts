/**
 * What `onMessage` returns and how it becomes a SendMessage result (A2A 1.0 §5: a direct `message`
 * for a simple answer, a `task` for tracked work; task outputs go in artifacts).
 */
import { a2aError } from './errors.ts';
import { type PartProblem, partProblem } from './validate.ts';
import type { A2aMetadata, A2aPart } from './types.ts';

/** Statuses an agent may end a turn with; each maps to `TASK_STATE_<UPPER_SNAKE>`. */
export type A2aReplyStatus = 'completed' | 'failed' | 'rejected' | 'input-required' | 'auth-required';

/** An artifact the agent produced: its parts (or a text), and an optional name and description. */
export interface A2aArtifactInput {
  /** The content: parts, or a string for one text part. */
  parts: string | A2aPart[];
  /** Default: a fresh UUID. */
  artifactId?: string;
  name?: string;
  description?: string;
  metadata?: A2aMetadata;
}

/** A reply that makes (or updates) a task. */
export interface A2aTaskReply {
  /** The state the task moves to. */
  status: A2aReplyStatus;
  /** The agent's message for `status.message`: the question of `input-required`, the reason of `failed`. */
  message?: string | A2aPart[];
  /** Outputs of the task. */
  artifacts?: A2aArtifactInput[];
  /** Merged into the task's `metadata`. */
  metadata?: A2aMetadata;
}

/**
 * The agent's answer to one message: a string (one text part) or parts give a direct message
 * (or, inside a task, complete it with one artifact); a `{ status }` object gives a task.
 */
export type A2aReply = string | A2aPart[] | A2aTaskReply;

/** A reply after validation. */
export type NormalizedReply =
  | { readonly kind: 'message'; readonly parts: A2aPart[] }
  | {
      readonly kind: 'task';
      readonly status: A2aReplyStatus;
      readonly message: A2aPart[] | undefined;
      readonly artifacts: {
        parts: A2aPart[];
        artifactId?: string;
        name?: string;
        description?: string;
        metadata?: A2aMetadata;
      }[];
      readonly metadata: A2aMetadata | undefined;
    };

const STATUSES: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'rejected',
  'input-required',
  'auth-required',
]);

/** `input-required` -> `TASK_STATE_INPUT_REQUIRED`. */
export function taskStateOf(status: A2aReplyStatus) {
  return `TASK_STATE_${status.replace('-', '_').toUpperCase()}` as
    | 'TASK_STATE_COMPLETED'
    | 'TASK_STATE_FAILED'
    | 'TASK_STATE_REJECTED'
    | 'TASK_STATE_INPUT_REQUIRED'
    | 'TASK_STATE_AUTH_REQUIRED';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The agent broke the contract: -32006, with the reason for the server log (never sent). */
class BadReply extends Error {}

function parts(where: string, value: unknown): A2aPart[] {
  if (typeof value === 'string') return [{ text: value }];
  if (!Array.isArray(value) || value.length === 0)
    throw new BadReply(`${where} must be a string or a non-empty part array`);
  value.forEach((part, i) => {
    const problem: PartProblem | undefined = partProblem(part);
    if (problem !== undefined) throw new BadReply(`${where}[${i}]${problem.field} ${problem.description}`);
  });
  return value as A2aPart[];
}

function optionalString(where: string, value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new BadReply(`${where} must be a string`);
  return value as string | undefined;
}

function metadata(where: string, value: unknown): A2aMetadata | undefined {
  if (value !== undefined && !isPlainObject(value)) throw new BadReply(`${where} must be an object`);
  return value as A2aMetadata | undefined;
}

/**
 * The reply as plain JSON (RFC 8259), so what is validated is exactly what will be sent and stored: a
 * BigInt or a cycle would otherwise make the answer (and every later GetTask) throw, and a function or
 * `undefined` member would vanish on the wire and leave an empty part behind.
 */
function plainJson(reply: unknown): unknown {
  if (typeof reply !== 'object' || reply === null) return reply;
  let text: string | undefined;
  try {
    text = JSON.stringify(reply);
  } catch (error) {
    throw new BadReply(
      `reply is not JSON-serialisable (${error instanceof Error ? error.message : 'unknown'})`,
    );
  }
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * Validates what onMessage returned. Throws -32006 INVALID_AGENT_RESPONSE (the agent, not the
 * client, is at fault); `cause` holds the precise reason for the operator.
 */
export function normalizeReply(input: unknown): NormalizedReply {
  try {
    const reply = plainJson(input);
    if (typeof reply === 'string' || Array.isArray(reply))
      return { kind: 'message', parts: parts('reply', reply) };
    if (!isPlainObject(reply)) throw new BadReply('reply must be a string, a part array or { status }');
    if (typeof reply.status !== 'string' || !STATUSES.has(reply.status)) {
      throw new BadReply(`reply.status must be one of ${[...STATUSES].join(', ')}`);
    }
    const artifacts = reply.artifacts ?? [];
    if (!Array.isArray(artifacts)) throw new BadReply('reply.artifacts must be an array');
    return {
      kind: 'task',
      status: reply.status as A2aReplyStatus,
      message: reply.message === undefined ? undefined : parts('reply.message', reply.message),
      artifacts: artifacts.map((artifact: unknown, i) => {
        const where = `reply.artifacts[${i}]`;
        if (!isPlainObject(artifact)) throw new BadReply(`${where} must be an object`);
        return {
          parts: parts(`${where}.parts`, artifact.parts),
          artifactId: optionalString(`${where}.artifactId`, artifact.artifactId),
          name: optionalString(`${where}.name`, artifact.name),
          description: optionalString(`${where}.description`, artifact.description),
          metadata: metadata(`${where}.metadata`, artifact.metadata),
        };
      }),
      metadata: metadata('reply.metadata', reply.metadata),
    };
  } catch (error) {
    if (!(error instanceof BadReply)) throw error;
    const rpc = a2aError('invalidAgentResponse');
    (rpc as { cause?: unknown }).cause = error.message;
    throw rpc;
  }
}
