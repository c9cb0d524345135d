/**
 * Task bookkeeping shared by the methods (A2A 1.0 §4 Task, §5 semantics): state classes, the view a
 * client gets (`historyLength`, `includeArtifacts`), and applying an agent reply to a task.
 */
import { A2A_INTERRUPTED_STATES, A2A_TERMINAL_STATES } from './constants.ts';
import { agentMessage, nowIso } from './parts.ts';
import { type NormalizedReply, taskStateOf } from './reply.ts';
import type { A2aMessage, A2aTask, A2aTaskState } from './types.ts';

const TERMINAL: ReadonlySet<string> = new Set(A2A_TERMINAL_STATES);
const INTERRUPTED: ReadonlySet<string> = new Set(A2A_INTERRUPTED_STATES);

/** Completed, failed, canceled or rejected: the task never changes again. */
export function isTerminal(state: A2aTaskState): boolean {
  return TERMINAL.has(state);
}

/** Input-required or auth-required: the task waits for the client's next message. */
export function isInterrupted(state: A2aTaskState): boolean {
  return INTERRUPTED.has(state);
}

/**
 * The task as a client sees it: `historyLength` unset gives the whole kept history, 0 omits the
 * `history` member, n gives the n most recent messages; artifacts are omitted entirely unless asked
 * for (ListTasks `includeArtifacts`, A2A 1.0 §5).
 */
export function viewTask(task: A2aTask, historyLength: number | undefined, includeArtifacts = true): A2aTask {
  const view: A2aTask = { id: task.id, contextId: task.contextId, status: task.status };
  if (includeArtifacts && task.artifacts !== undefined && task.artifacts.length > 0)
    view.artifacts = task.artifacts;
  const history = task.history ?? [];
  if (historyLength !== 0 && history.length > 0) {
    view.history = historyLength === undefined ? history : history.slice(-historyLength);
  }
  if (task.metadata !== undefined) view.metadata = task.metadata;
  return view;
}

/** Appends messages to the history, dropping the oldest past `maxHistory`. */
export function appendHistory(task: A2aTask, maxHistory: number, ...messages: A2aMessage[]): void {
  const history = [...(task.history ?? []), ...messages];
  task.history = history.length > maxHistory ? history.slice(-maxHistory) : history;
}

/** A new task of the context, in `state`, with `message` as its first history entry. */
export function newTask(contextId: string, state: A2aTaskState, message: A2aMessage): A2aTask {
  const id = crypto.randomUUID();
  return {
    id,
    contextId,
    status: { state, timestamp: nowIso() },
    history: [{ ...message, contextId, taskId: id }],
  };
}

/**
 * Moves a task by the agent's reply. Plain parts complete the task with one artifact (A2A 1.0:
 * task outputs belong in artifacts); a `{ status }` reply sets the state, its message becomes
 * `status.message` (and joins the history) and its artifacts are appended.
 */
export function applyReply(task: A2aTask, reply: NormalizedReply, maxHistory: number): void {
  const timestamp = nowIso();
  const artifacts = [...(task.artifacts ?? [])];
  if (reply.kind === 'message') {
    task.status = { state: 'TASK_STATE_COMPLETED', timestamp };
    artifacts.push({ artifactId: crypto.randomUUID(), parts: reply.parts });
  } else {
    task.status = { state: taskStateOf(reply.status), timestamp };
    if (reply.message !== undefined) {
      const message = agentMessage(reply.message, task.contextId, task.id);
      task.status.message = message;
      appendHistory(task, maxHistory, message);
    }
    for (const artifact of reply.artifacts) {
      const out: NonNullable<A2aTask['artifacts']>[number] = {
        artifactId: artifact.artifactId ?? crypto.randomUUID(),
        parts: artifact.parts,
      };
      if (artifact.name !== undefined) out.name = artifact.name;
      if (artifact.description !== undefined) out.description = artifact.description;
      if (artifact.metadata !== undefined) out.metadata = artifact.metadata;
      artifacts.push(out);
    }
    if (reply.metadata !== undefined) task.metadata = { ...task.metadata, ...reply.metadata };
  }
  if (artifacts.length > 0) task.artifacts = artifacts;
}
