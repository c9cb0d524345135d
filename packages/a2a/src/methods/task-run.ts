/**
 * One agent turn on a stored task (A2A 1.0 §5: a task is worked on by one agent turn at a time, and a
 * canceled task stays canceled). A turn is claimed in the handler's `running` map before anything is
 * awaited, so two follow-ups racing for the same input-required task cannot both run (the loser gets
 * -32004), and CancelTask finds the turn's controller to abort. When the turn ends, its outcome is
 * written over the task as it is in the store then, unless the task was canceled or dropped meanwhile.
 *
 * The claim is per handler (per process). Across processes sharing a store, a store with
 * `replaceIf` (compare-and-set) makes every write conditional on the task as read: a follow-up that
 * lost the race on another instance gets -32004, and an outcome never overwrites a cancel.
 */
import { A2aTaskCanceled, internalError } from '../agent-call.ts';
import { A2aRpcError, a2aError } from '../errors.ts';
import type { RpcFrame } from '../frame.ts';
import { agentMessage, nowIso } from '../parts.ts';
import type { NormalizedReply } from '../reply.ts';
import { applyReply, isTerminal } from '../task-state.ts';
import type { A2aTask } from '../types.ts';

/** How an agent turn ended. */
export type TurnOutcome = { readonly reply: NormalizedReply } | { readonly error: unknown };

/**
 * Claims `task` for one agent turn. Synchronous on purpose: nothing may be awaited between the check
 * and the claim. Throws -32004 when another turn holds the task.
 */
export function claimTask(frame: RpcFrame, task: A2aTask): AbortController {
  if (frame.running.has(task.id)) {
    throw a2aError(
      'unsupportedOperation',
      `Task ${task.id} is still TASK_STATE_WORKING: wait for it to finish`,
      { taskId: task.id, state: 'TASK_STATE_WORKING' },
    );
  }
  const run = new AbortController();
  frame.running.set(task.id, run);
  return run;
}

/** Ends a claim (only the claim's own entry: a later turn may hold the id by now). */
export function releaseTask(frame: RpcFrame, taskId: string, run: AbortController): void {
  if (frame.running.get(taskId) === run) frame.running.delete(taskId);
}

/**
 * Writes `task` if the store still holds `expected` (the task as read), when the store can compare
 * and set; a store without `replaceIf` writes unconditionally (one process). Answers whether it wrote.
 */
export async function writeTaskIf(frame: RpcFrame, task: A2aTask, expected: A2aTask): Promise<boolean> {
  const store = frame.options.taskStore;
  if (store === undefined) return false;
  if (store.replaceIf === undefined) {
    await store.put(frame.owner as string, task);
    return true;
  }
  return store.replaceIf(frame.owner as string, task, expected);
}

// How many times an outcome is re-read and re-applied when another instance wrote the task meanwhile.
const SETTLE_ATTEMPTS = 5;

/**
 * Writes the outcome of a claimed turn and releases the claim. Returns the task as stored afterwards,
 * or undefined when it expired or was evicted meanwhile. A task that became terminal meanwhile (a
 * CancelTask) is left alone; a cancel whose write was overtaken is written again.
 */
export async function settleTask(
  frame: RpcFrame,
  taskId: string,
  run: AbortController,
  outcome: TurnOutcome,
): Promise<A2aTask | undefined> {
  const store = frame.options.taskStore;
  const owner = frame.owner as string;
  try {
    for (let attempt = 1; ; attempt++) {
      const current = store === undefined ? undefined : await store.get(owner, taskId);
      if (store === undefined || current === undefined) return undefined;
      if (isTerminal(current.status.state)) return current;
      const expected = structuredClone(current);
      if (run.signal.reason instanceof A2aTaskCanceled) {
        current.status = { state: 'TASK_STATE_CANCELED', timestamp: nowIso() };
      } else if ('reply' in outcome) {
        applyReply(current, outcome.reply, frame.options.maxHistory);
      } else {
        // Already redacted by callAgent; anything else (a store failure) is redacted here.
        const error = outcome.error;
        const text = error instanceof A2aRpcError ? error.message : internalError(frame, error).message;
        const message = agentMessage([{ text }], current.contextId, current.id);
        current.status = { state: 'TASK_STATE_FAILED', message, timestamp: nowIso() };
      }
      if (await writeTaskIf(frame, current, expected)) return current;
      // Written meanwhile by another instance (a cancel, usually): read it again.
      if (attempt >= SETTLE_ATTEMPTS)
        throw new Error(`a2a: task ${taskId} kept changing while its turn ended`);
    }
  } finally {
    releaseTask(frame, taskId, run);
  }
}
