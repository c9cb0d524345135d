/**
 * `SendMessage` (A2A 1.0 §3 and §5): validate the request, find the task a follow-up continues,
 * call the agent, and answer with a direct `message` or a `task`. Blocking by default (waits until
 * the task is terminal or interrupted); `returnImmediately` answers once the task exists and lets
 * the agent run in the background.
 */
import { callAgent, internalError, report } from '../agent-call.ts';
import { a2aError, invalidField } from '../errors.ts';
import type { RpcFrame } from '../frame.ts';
import type { A2aMessageContext } from '../options.ts';
import { agentMessage, messageText, nowIso } from '../parts.ts';
import { appendHistory, applyReply, isInterrupted, isTerminal, newTask, viewTask } from '../task-state.ts';
import { claimTask, releaseTask, settleTask, writeTaskIf } from './task-run.ts';
import type { A2aMessage, A2aSendMessageResponse, A2aTask } from '../types.ts';
import { checkMessage, isPlainObject, paramsObject, Violations } from '../validate.ts';

interface SendParams {
  readonly message: A2aMessage;
  readonly historyLength: number | undefined;
  readonly returnImmediately: boolean;
  readonly acceptedOutputModes: readonly string[] | undefined;
  readonly metadata: Record<string, unknown> | undefined;
}

function readParams(raw: unknown): SendParams {
  const params = paramsObject(raw);
  const v = new Violations();
  checkMessage(v, 'message', params.message);
  const config = params.configuration;
  v.object('configuration', config);
  const c = isPlainObject(config) ? config : {};
  v.count('configuration.historyLength', c.historyLength);
  v.boolean('configuration.returnImmediately', c.returnImmediately);
  v.stringArray('configuration.acceptedOutputModes', c.acceptedOutputModes);
  v.object('metadata', params.metadata);
  v.throwIfAny();
  // Push notifications are off (card capability false): a config for them cannot be honoured.
  if (c.taskPushNotificationConfig !== undefined) throw a2aError('pushNotificationNotSupported');
  return {
    message: params.message as A2aMessage,
    historyLength: c.historyLength as number | undefined,
    returnImmediately: c.returnImmediately === true,
    acceptedOutputModes: c.acceptedOutputModes as string[] | undefined,
    metadata: params.metadata as Record<string, unknown> | undefined,
  };
}

function essence(mediaType: string): string {
  const semi = mediaType.indexOf(';');
  return (semi === -1 ? mediaType : mediaType.slice(0, semi)).trim().toLowerCase();
}

/** Whether an accepted mode (`*​/*`, `text/*` or exact) covers a mode the agent produces. */
function covers(accepted: string, produced: string): boolean {
  const a = essence(accepted);
  const p = essence(produced);
  if (a === '*/*' || a === p) return true;
  return a.endsWith('/*') && p.startsWith(a.slice(0, -1));
}

/** -32005 when the client accepts none of the media types the card says the agent writes. */
function checkOutputModes(frame: RpcFrame, accepted: readonly string[] | undefined): void {
  if (accepted === undefined || accepted.length === 0) return;
  const card = frame.options.card;
  const produced = [...card.defaultOutputModes, ...card.skills.flatMap((skill) => skill.outputModes ?? [])];
  if (!accepted.some((a) => produced.some((p) => covers(a, p)))) {
    throw a2aError(
      'contentTypeNotSupported',
      `None of acceptedOutputModes is produced by this agent (it writes ${[...new Set(produced)].join(', ')})`,
    );
  }
}

/** A follow-up's task, claimed for this turn (see task-run.ts). */
interface Continued {
  readonly task: A2aTask;
  readonly run: AbortController;
  /** The task as read, for the compare-and-set that starts the turn. */
  readonly read: A2aTask;
}

/**
 * The task a follow-up message continues: it must exist for this owner and be waiting for input. It
 * is claimed before this function returns, with no await in between the checks and the claim.
 */
async function continuedTask(frame: RpcFrame, message: A2aMessage): Promise<Continued | undefined> {
  if (message.taskId === undefined) return undefined;
  const store = frame.options.taskStore;
  const task = store === undefined ? undefined : await store.get(frame.owner as string, message.taskId);
  if (task === undefined) throw a2aError('taskNotFound', undefined, { taskId: message.taskId });
  if (isTerminal(task.status.state)) {
    throw a2aError(
      'unsupportedOperation',
      `Task ${task.id} is ${task.status.state} and accepts no more messages`,
      { taskId: task.id, state: task.status.state },
    );
  }
  // One agent turn at a time: only an interrupted task waits for the client.
  if (!isInterrupted(task.status.state)) {
    throw a2aError(
      'unsupportedOperation',
      `Task ${task.id} is still ${task.status.state}: wait for it to finish`,
      { taskId: task.id, state: task.status.state },
    );
  }
  // A2A 1.0 §5: a contextId that contradicts the task's is rejected, not silently replaced.
  if (message.contextId !== undefined && message.contextId !== task.contextId) {
    throw invalidField('message.contextId', `does not match the contextId of task ${task.id}`);
  }
  return { task, run: claimTask(frame, task), read: structuredClone(task) };
}

function context(
  frame: RpcFrame,
  params: SendParams,
  task: A2aTask | undefined,
  contextId: string,
  signal: AbortSignal,
): A2aMessageContext {
  return {
    message: params.message,
    text: messageText(params.message),
    task,
    contextId,
    host: frame.host,
    owner: frame.owner,
    signal,
    acceptedOutputModes: params.acceptedOutputModes,
    extensions: frame.extensions,
    metadata: params.metadata,
  };
}

/**
 * Starts a claimed turn: the task (its new message already in the history) is stored as WORKING,
 * so GetTask shows it and another follow-up is refused; a store failure releases the claim.
 */
async function startTurn(
  frame: RpcFrame,
  task: A2aTask,
  run: AbortController,
  read?: A2aTask,
): Promise<void> {
  task.status = { state: 'TASK_STATE_WORKING', timestamp: nowIso() };
  let written: boolean;
  try {
    if (read === undefined) {
      await frame.options.taskStore?.put(frame.owner as string, task);
      written = true;
    } else {
      written = await writeTaskIf(frame, task, read);
    }
  } catch (error) {
    releaseTask(frame, task.id, run);
    throw error;
  }
  if (!written) {
    // Another instance started a turn (or canceled the task) since it was read.
    releaseTask(frame, task.id, run);
    throw a2aError(
      'unsupportedOperation',
      `Task ${task.id} is still TASK_STATE_WORKING: wait for it to finish`,
      {
        taskId: task.id,
        state: 'TASK_STATE_WORKING',
      },
    );
  }
}

/** Runs the agent after the answer went out; the result (or a failure) lands in the store. */
function runInBackground(
  frame: RpcFrame,
  params: SendParams,
  task: A2aTask,
  seen: A2aTask | undefined,
  run: AbortController,
): void {
  const ctx = context(frame, params, seen, task.contextId, run.signal);
  callAgent(frame, ctx, run)
    .then(
      (reply) => settleTask(frame, task.id, run, { reply }),
      (error: unknown) => settleTask(frame, task.id, run, { error }),
    )
    .catch((error: unknown) => report(frame, error, 'SendMessage'));
}

/** A follow-up answered when the agent is done: the task as settled, or the agent's error. */
async function continueBlocking(
  frame: RpcFrame,
  params: SendParams,
  { task, run }: Continued,
  seen: A2aTask,
): Promise<A2aSendMessageResponse> {
  const signal = AbortSignal.any([frame.signal, run.signal]);
  const ctx = context(frame, params, seen, task.contextId, signal);
  let outcome: Parameters<typeof settleTask>[3];
  try {
    outcome = { reply: await callAgent(frame, ctx, run) };
  } catch (error) {
    outcome = { error };
  }
  const settled = await settleTask(frame, task.id, run, outcome);
  if (settled === undefined) throw a2aError('taskNotFound', undefined, { taskId: task.id });
  // Canceled meanwhile: the cancel is the answer. Otherwise an agent failure is the JSON-RPC error
  // (the stored task is FAILED with the same redacted message).
  if ('error' in outcome && settled.status.state !== 'TASK_STATE_CANCELED') throw outcome.error;
  return { task: viewTask(settled, params.historyLength) };
}

/** SendMessage: `{ message }` for a direct reply, `{ task }` for tracked work. */
export async function sendMessage(frame: RpcFrame, raw: unknown): Promise<A2aSendMessageResponse> {
  const params = readParams(raw);
  checkOutputModes(frame, params.acceptedOutputModes);
  const store = frame.options.taskStore;
  const owner = frame.owner as string;
  const { message, historyLength } = params;
  const maxHistory = frame.options.maxHistory;
  const continued = await continuedTask(frame, message);
  const contextId = continued?.task.contextId ?? message.contextId ?? crypto.randomUUID();
  // Non-blocking needs somewhere to look the result up; without a store the call simply blocks.
  const background = params.returnImmediately && store !== undefined;

  if (continued !== undefined) {
    const { task, run, read } = continued;
    appendHistory(task, maxHistory, { ...message, contextId, taskId: task.id });
    // The agent sees the task as it waited (its question in status.message), history ending with the answer.
    const seen = structuredClone(task);
    await startTurn(frame, task, run, read);
    if (!background) return continueBlocking(frame, params, continued, seen);
    runInBackground(frame, params, task, seen, run);
    return { task: viewTask(task, historyLength) };
  }

  if (background) {
    const task = newTask(contextId, 'TASK_STATE_WORKING', message);
    const run = claimTask(frame, task);
    await startTurn(frame, task, run);
    runInBackground(frame, params, task, undefined, run);
    return { task: viewTask(task, historyLength) };
  }

  // A new conversation turn, blocking: nothing is stored until the agent answers (a direct message
  // is never stored), so nobody else can reach this turn; only the client's disconnect or
  // agentTimeoutMs abort it.
  const run = new AbortController();
  const signal = AbortSignal.any([frame.signal, run.signal]);
  const reply = await callAgent(frame, context(frame, params, undefined, contextId, signal), run);
  if (reply.kind === 'message') return { message: agentMessage(reply.parts, contextId) };
  const task = newTask(contextId, 'TASK_STATE_WORKING', message);
  applyReply(task, reply, maxHistory);
  if (store !== undefined) {
    await store.put(owner, task);
  } else if (!isTerminal(task.status.state)) {
    // Nobody could send the follow-up: the agent asked for input it can never receive.
    const error = new TypeError(
      `a2a: onMessage returned ${task.status.state}, which needs a taskStore to continue the task`,
    );
    report(frame, error, 'SendMessage');
    throw internalError(frame, error);
  }
  return { task: viewTask(task, historyLength) };
}
