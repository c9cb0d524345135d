/**
 * Shape checks on what an agent sends back (A2A 1.0 §4 data model, ProtoJSON mapping). They check the
 * fields a caller relies on and leave unknown fields alone (the specification says to ignore them);
 * ProtoJSON omits fields at their default value, so an absent `nextPageToken` reads as `""`.
 */
import { A2A_JSONRPC_BINDING, A2A_PROTOCOL_VERSION } from '../constants.ts';
import type {
  A2aAgentCard,
  A2aAgentInterface,
  A2aListTasksResponse,
  A2aMessage,
  A2aSendMessageResponse,
  A2aTask,
} from '../types.ts';
import { A2aClientError } from './errors.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function invalidCard(why: string): A2aClientError {
  return new A2aClientError(`A2A agent card is invalid: ${why}`, { reason: 'invalid-card' });
}

/**
 * Checks the required members of an A2A 1.0 AgentCard (§2 table): `name`, `description`, `version`,
 * `supportedInterfaces` (each with `url`, `protocolBinding`, `protocolVersion`), `capabilities`,
 * `defaultInputModes`, `defaultOutputModes`, `skills` (each with `id`, `name`, `description`, `tags`).
 */
export function assertAgentCard(value: unknown): asserts value is A2aAgentCard {
  if (!isObject(value)) throw invalidCard('it is not a JSON object');
  for (const name of ['name', 'description', 'version'] as const) {
    if (typeof value[name] !== 'string') throw invalidCard(`"${name}" must be a string`);
  }
  const interfaces = value.supportedInterfaces;
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    // A 0.3 card has a top-level `url` instead; say so, it is the common mistake.
    const hint = typeof value.url === 'string' ? ' (this looks like an A2A 0.3 card)' : '';
    throw invalidCard(`"supportedInterfaces" must be a non-empty array${hint}`);
  }
  interfaces.forEach((entry: unknown, index) => {
    if (
      !isObject(entry) ||
      typeof entry.url !== 'string' ||
      typeof entry.protocolBinding !== 'string' ||
      typeof entry.protocolVersion !== 'string' ||
      (entry.tenant !== undefined && typeof entry.tenant !== 'string')
    ) {
      throw invalidCard(
        `supportedInterfaces[${index}] needs string url, protocolBinding and protocolVersion`,
      );
    }
  });
  if (!isObject(value.capabilities)) throw invalidCard('"capabilities" must be an object');
  for (const name of ['defaultInputModes', 'defaultOutputModes'] as const) {
    if (!isStringArray(value[name])) throw invalidCard(`"${name}" must be an array of media types`);
  }
  if (!Array.isArray(value.skills)) throw invalidCard('"skills" must be an array');
  value.skills.forEach((skill: unknown, index) => {
    if (
      !isObject(skill) ||
      typeof skill.id !== 'string' ||
      typeof skill.name !== 'string' ||
      typeof skill.description !== 'string' ||
      !isStringArray(skill.tags)
    ) {
      throw invalidCard(`skills[${index}] needs string id, name, description and a tags array`);
    }
  });
}

/** The first JSON-RPC interface speaking protocol 1.0, in the card's preference order (first = preferred). */
export function selectJsonRpcInterface(card: A2aAgentCard): A2aAgentInterface {
  const chosen = card.supportedInterfaces.find(
    (entry) =>
      entry.protocolBinding === A2A_JSONRPC_BINDING && entry.protocolVersion === A2A_PROTOCOL_VERSION,
  );
  if (chosen === undefined) {
    throw invalidCard(
      `no supportedInterfaces entry has protocolBinding "${A2A_JSONRPC_BINDING}" and protocolVersion "${A2A_PROTOCOL_VERSION}"`,
    );
  }
  return chosen;
}

function invalidResult(method: string, why: string): A2aClientError {
  return new A2aClientError(`A2A ${method} result is invalid: ${why}`, { reason: 'invalid-response' });
}

function isTask(value: unknown): value is A2aTask {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    value.id !== '' &&
    isObject(value.status) &&
    typeof value.status.state === 'string'
  );
}

function isMessage(value: unknown): value is A2aMessage {
  return (
    isObject(value) &&
    typeof value.messageId === 'string' &&
    typeof value.role === 'string' &&
    Array.isArray(value.parts)
  );
}

/** A task result (GetTask, CancelTask): an object with a non-empty `id` and a `status.state`. */
export function asTask(method: string, value: unknown): A2aTask {
  if (!isTask(value)) throw invalidResult(method, 'expected a Task with an id and a status.state');
  return value;
}

/** A SendMessage result: exactly one of `task` and `message` (A2A 1.0 SendMessageResponse oneof). */
export function asSendMessageResponse(value: unknown): A2aSendMessageResponse {
  if (!isObject(value)) throw invalidResult('SendMessage', 'expected an object');
  const hasTask = value.task !== undefined;
  const hasMessage = value.message !== undefined;
  if (hasTask === hasMessage)
    throw invalidResult('SendMessage', 'expected exactly one of "task" and "message"');
  if (hasTask) {
    if (!isTask(value.task))
      throw invalidResult('SendMessage', '"task" is not a Task with an id and a status.state');
    return { task: value.task };
  }
  if (!isMessage(value.message)) {
    throw invalidResult('SendMessage', '"message" is not a Message with messageId, role and parts');
  }
  return { message: value.message };
}

/** A ListTasks result; ProtoJSON defaults fill absent `tasks`, `nextPageToken`, `pageSize`, `totalSize`. */
export function asListTasksResponse(value: unknown): A2aListTasksResponse {
  if (!isObject(value)) throw invalidResult('ListTasks', 'expected an object');
  const tasks = value.tasks ?? [];
  if (!Array.isArray(tasks) || !tasks.every(isTask)) {
    throw invalidResult('ListTasks', '"tasks" must be an array of Tasks');
  }
  const nextPageToken = value.nextPageToken ?? '';
  const pageSize = value.pageSize ?? 0;
  const totalSize = value.totalSize ?? 0;
  if (typeof nextPageToken !== 'string') throw invalidResult('ListTasks', '"nextPageToken" must be a string');
  if (!Number.isSafeInteger(pageSize) || !Number.isSafeInteger(totalSize)) {
    throw invalidResult('ListTasks', '"pageSize" and "totalSize" must be integers');
  }
  return { ...value, tasks, nextPageToken, pageSize: pageSize as number, totalSize: totalSize as number };
}
