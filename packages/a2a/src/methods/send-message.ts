/**
 * `SendMessage` (A2A 1.0 §3 and §5): validate the request, find the task a follow-up continues,
 * call the agent, and answer with a direct `message` or a `task`. Blocking by default (waits until
 * the task is terminal or interrupted); `returnImmediately` answers once the task exists and lets
 * the agent run in the background.
 */
import { callAgent, internalError } from '../agent-call.ts';
import { a2aError, invalidField } from '../errors.ts';
import type { RpcFrame } from '../frame.ts';
import type { A2aMessageContext } from '../options.ts';
import { agentMessage, messageText, nowIso } from '../parts.ts';
import type { NormalizedReply } from '../reply.ts';
import { appendHistory, applyReply, isInterrupted, isTerminal, newTask, viewTask } from '../task-state.ts';
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

/** The task a follow-up message continues: it must exist for this owner and be waiting for input. */
async function continuedTask(frame: RpcFrame, message: A2aMessage): Promise<A2aTask | undefined> {
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
      {
        taskId: task.id,
        state: task.status.state,
      },
    );
  }
  // A2A 1.0 §5: a contextId that contradicts the task's is rejected, not silently replaced.
  if (message.contextId !== undefined && message.contextId !== task.contextId) {
    throw invalidField('message.contextId', `does not match the contextId of task ${task.id}`);
  }
  return task;
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

/** Runs the agent after the answer went out; the result (or a failure) lands in the store. */
function runInBackground(frame: RpcFrame, params: SendParams, task: A2aTask): void {
  const store = frame.options.taskStore;
  const owner = frame.owner as string;
  if (store === undefined) return;
  const controller = new AbortController();
  frame.running.set(task.id, controller);
  const ctx = context(frame, params, structuredClone(task), task.contextId, controller.signal);
  const finish = async (reply: NormalizedReply | undefined, error?: unknown): Promise<void> => {
    const current = await store.get(owner, task.id);
    // Canceled (or expired) meanwhile: the cancel stands, the late reply is dropped.
    if (current === undefined || isTerminal(current.status.state)) return;
    if (reply !== undefined) {
      applyReply(current, reply, frame.options.maxHistory);
    } else {
      const detail = internalError(frame, error).message;
      const message = agentMessage([{ text: detail }], current.contextId, current.id);
      current.status = { state: 'TASK_STATE_FAILED', message, timestamp: nowIso() };
    }
    await store.put(owner, current);
  };
  callAgent(frame, ctx)
    .then(
      (reply) => finish(reply),
      (error) => finish(undefined, error),
    )
    .catch((error) => frame.options.onError(error, { method: 'SendMessage' }))
    .finally(() => frame.running.delete(task.id));
}

/** SendMessage: `{ message }` for a direct reply, `{ task }` for tracked work. */
export async function sendMessage(frame: RpcFrame, raw: unknown): Promise<A2aSendMessageResponse> {
  const params = readParams(raw);
  checkOutputModes(frame, params.acceptedOutputModes);
  const store = frame.options.taskStore;
  const owner = frame.owner as string;
  const { message, historyLength, maxHistory } = { ...params, maxHistory: frame.options.maxHistory };
  const existing = await continuedTask(frame, message);
  const contextId = existing?.contextId ?? message.contextId ?? crypto.randomUUID();

  // Non-blocking needs somewhere to look the result up; without a store the call simply blocks.
  if (params.returnImmediately && store !== undefined) {
    let task: A2aTask;
    if (existing === undefined) {
      task = newTask(contextId, 'TASK_STATE_WORKING', message);
    } else {
      task = existing;
      appendHistory(task, maxHistory, { ...message, contextId, taskId: task.id });
      task.status = { state: 'TASK_STATE_WORKING', timestamp: nowIso() };
    }
    await store.put(owner, task);
    runInBackground(frame, params, task);
    return { task: viewTask(task, historyLength) };
  }

  let task: A2aTask | undefined;
  if (existing !== undefined) {
    task = existing;
    appendHistory(task, maxHistory, { ...message, contextId, taskId: task.id });
  }
  const reply = await callAgent(
    frame,
    context(frame, params, task && structuredClone(task), contextId, frame.signal),
  );
  if (reply.kind === 'message' && task === undefined) {
    return { message: agentMessage(reply.parts, contextId) };
  }
  task ??= newTask(contextId, 'TASK_STATE_WORKING', message);
  applyReply(task, reply, maxHistory);
  if (store !== undefined) {
    await store.put(owner, task);
  } else if (!isTerminal(task.status.state)) {
    // Nobody could send the follow-up: the agent asked for input it can never receive.
    const error = new TypeError(
      `a2a: onMessage returned ${task.status.state}, which needs a taskStore to continue the task`,
    );
    frame.options.onError(error, { method: 'SendMessage' });
    throw internalError(frame, error);
  }
  return { task: viewTask(task, historyLength) };
}
