/**
 * `GetTask`, `CancelTask` and `ListTasks` (A2A 1.0 §3, §5). Every lookup is scoped to the caller's
 * owner: another owner's task answers exactly like a missing one (-32001), so existence never leaks.
 */
import { A2aTaskCanceled } from '../agent-call.ts';
import { A2A_METHODS } from '../constants.ts';
import { a2aError, invalidField } from '../errors.ts';
import type { RpcFrame } from '../frame.ts';
import { nowIso } from '../parts.ts';
import { type A2aTaskCursor, cursorOf } from '../task-store.ts';
import { isTerminal, viewTask } from '../task-state.ts';
import { writeTaskIf } from './task-run.ts';
import type { A2aListTasksResponse, A2aTask } from '../types.ts';
import { checkPageSize, checkStateFilter, checkTimestamp, paramsObject, Violations } from '../validate.ts';

async function findTask(frame: RpcFrame, id: string): Promise<A2aTask> {
  const store = frame.options.taskStore;
  const task = store === undefined ? undefined : await store.get(frame.owner as string, id);
  if (task === undefined) throw a2aError('taskNotFound', undefined, { taskId: id });
  return task;
}

/** GetTask `{ id, historyLength? }` -> the task. */
export async function getTask(frame: RpcFrame, raw: unknown): Promise<A2aTask> {
  const params = paramsObject(raw);
  const v = new Violations();
  v.id('id', params.id, true);
  v.count('historyLength', params.historyLength);
  v.throwIfAny();
  const task = await findTask(frame, params.id as string);
  return viewTask(task, params.historyLength as number | undefined);
}

/**
 * CancelTask `{ id, metadata? }` -> the task. Idempotent: a canceled task is returned as it is;
 * another terminal state is -32002. A task running in the background has its signal aborted and
 * its late reply dropped.
 */
export async function cancelTask(frame: RpcFrame, raw: unknown): Promise<A2aTask> {
  const params = paramsObject(raw);
  const v = new Violations();
  v.id('id', params.id, true);
  v.object('metadata', params.metadata);
  v.throwIfAny();
  // With a compare-and-set store, a cancel that raced another instance's write reads the task again.
  for (let attempt = 1; ; attempt++) {
    const task = await findTask(frame, params.id as string);
    const state = task.status.state;
    if (state === 'TASK_STATE_CANCELED') return viewTask(task, undefined);
    if (isTerminal(state))
      throw a2aError('taskNotCancelable', `Task ${task.id} is ${state} and cannot be canceled`, {
        taskId: task.id,
        state,
      });
    const expected = structuredClone(task);
    task.status = { state: 'TASK_STATE_CANCELED', timestamp: nowIso() };
    if (await writeTaskIf(frame, task, expected)) {
      frame.running.get(task.id)?.abort(new A2aTaskCanceled());
      return viewTask(task, undefined);
    }
    if (attempt >= 5) throw new Error(`a2a: task ${task.id} kept changing while it was being canceled`);
  }
}

/** Page tokens are opaque to clients: base64url of the last task's sort position. */
export function encodePageToken(cursor: A2aTaskCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.timestamp, cursor.id]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/** The cursor in a page token, or undefined when it is not one this server issued. */
export function decodePageToken(token: string): A2aTaskCursor | undefined {
  if (token.length > 1024) return undefined;
  try {
    const binary = atob(token.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (
      !Array.isArray(value) ||
      value.length !== 2 ||
      typeof value[0] !== 'string' ||
      typeof value[1] !== 'string'
    )
      return undefined;
    return { timestamp: value[0], id: value[1] };
  } catch {
    return undefined;
  }
}

/**
 * ListTasks: the caller's tasks, newest status first, `pageSize` 1..100 (default 50), cursor paging
 * with `nextPageToken` always present and `""` on the last page; artifacts only with
 * `includeArtifacts`. Without a task store the list is empty.
 */
export async function listTasks(frame: RpcFrame, raw: unknown): Promise<A2aListTasksResponse> {
  const params = paramsObject(raw);
  const v = new Violations();
  v.id('contextId', params.contextId, false);
  const state = checkStateFilter(v, 'status', params.status);
  const pageSize = checkPageSize(v, 'pageSize', params.pageSize);
  if (params.pageToken !== undefined && typeof params.pageToken !== 'string')
    v.add('pageToken', 'must be a string');
  v.count('historyLength', params.historyLength);
  const after = checkTimestamp(v, 'statusTimestampAfter', params.statusTimestampAfter);
  v.boolean('includeArtifacts', params.includeArtifacts);
  v.throwIfAny();
  let cursor: A2aTaskCursor | undefined;
  if (typeof params.pageToken === 'string' && params.pageToken !== '') {
    cursor = decodePageToken(params.pageToken);
    if (cursor === undefined)
      throw invalidField('pageToken', `is not a token ${A2A_METHODS.listTasks} issued`);
  }
  const store = frame.options.taskStore;
  if (store === undefined) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
  // One more than a page tells whether another page follows without a second query.
  const page = await store.list(frame.owner as string, {
    contextId: params.contextId as string | undefined,
    state,
    statusTimestampAfterMs: after,
    after: cursor,
    limit: pageSize + 1,
  });
  const tasks = page.tasks.slice(0, pageSize);
  const last = tasks.at(-1);
  const more = page.tasks.length > pageSize && last !== undefined;
  const includeArtifacts = params.includeArtifacts === true;
  const historyLength = params.historyLength as number | undefined;
  return {
    tasks: tasks.map((task) => viewTask(task, historyLength, includeArtifacts)),
    nextPageToken: more ? encodePageToken(cursorOf(last)) : '',
    pageSize,
    totalSize: page.totalSize,
  };
}
