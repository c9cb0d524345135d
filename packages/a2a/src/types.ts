/**
 * A2A protocol 1.0 wire types: the ProtoJSON mapping of `lf.a2a.v1` (specification/a2a.proto):
 * camelCase fields, enum names as strings, bytes as base64 strings, timestamps as ISO-8601 UTC.
 */

/** A JSON value as it travels in `data` parts and `metadata`. */
export type A2aJsonValue =
  | string
  | number
  | boolean
  | null
  | A2aJsonValue[]
  | { [key: string]: A2aJsonValue };

/** Free-form metadata object (ProtoJSON `google.protobuf.Struct`). */
export type A2aMetadata = Record<string, unknown>;

/** Lifecycle state of a task (A2A 1.0 TaskState). `TASK_STATE_UNSPECIFIED` is never a real state. */
export type A2aTaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_REJECTED';

/** Sender of a message (A2A 1.0 Role). */
export type A2aRole = 'ROLE_USER' | 'ROLE_AGENT';

/** Fields shared by every part kind. */
interface A2aPartBase {
  /** Media type of the content, e.g. `text/plain` or `application/json`. */
  mediaType?: string;
  /** Suggested file name. */
  filename?: string;
  /** Free-form metadata. */
  metadata?: A2aMetadata;
}

/** A text part. */
export interface A2aTextPart extends A2aPartBase {
  text: string;
}

/** A file carried inline as base64 bytes. */
export interface A2aRawPart extends A2aPartBase {
  raw: string;
}

/** A file referenced by URL. */
export interface A2aUrlPart extends A2aPartBase {
  url: string;
}

/** A structured JSON part. */
export interface A2aDataPart extends A2aPartBase {
  data: unknown;
}

/** One piece of content: exactly one of `text`, `raw`, `url`, `data` decides the kind (no `kind` in 1.0). */
export type A2aPart = A2aTextPart | A2aRawPart | A2aUrlPart | A2aDataPart;

/** A message exchanged between a client (`ROLE_USER`) and an agent (`ROLE_AGENT`). */
export interface A2aMessage {
  /** Creator-generated unique id (a UUID). */
  messageId: string;
  role: A2aRole;
  /** At least one part. */
  parts: A2aPart[];
  contextId?: string;
  taskId?: string;
  metadata?: A2aMetadata;
  /** Extension URIs this message uses. */
  extensions?: string[];
  /** Other tasks this message refers to. */
  referenceTaskIds?: string[];
}

/** Current status of a task. */
export interface A2aTaskStatus {
  state: A2aTaskState;
  /** Message from the agent explaining the state (e.g. the question of `TASK_STATE_INPUT_REQUIRED`). */
  message?: A2aMessage;
  /** ISO-8601 UTC timestamp with milliseconds, e.g. `2026-01-02T03:04:05.678Z`. */
  timestamp?: string;
}

/** An output produced by a task. */
export interface A2aArtifact {
  artifactId: string;
  parts: A2aPart[];
  name?: string;
  description?: string;
  metadata?: A2aMetadata;
  extensions?: string[];
}

/** A unit of tracked work. */
export interface A2aTask {
  /** Server-generated id. */
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  artifacts?: A2aArtifact[];
  history?: A2aMessage[];
  metadata?: A2aMetadata;
}

/** `configuration` of a SendMessage request. */
export interface A2aSendMessageConfiguration {
  acceptedOutputModes?: string[];
  /** Unset: server default; 0: omit `history`; n: at most n most recent messages. */
  historyLength?: number;
  /** Return as soon as the task exists instead of waiting for a terminal or interrupted state. */
  returnImmediately?: boolean;
  taskPushNotificationConfig?: A2aTaskPushNotificationConfig;
}

/** Params of `SendMessage` / `SendStreamingMessage`. */
export interface A2aSendMessageRequest {
  message: A2aMessage;
  configuration?: A2aSendMessageConfiguration;
  metadata?: A2aMetadata;
  tenant?: string;
}

/** Result of `SendMessage`: exactly one of a task or a direct message. */
export type A2aSendMessageResponse = { task: A2aTask } | { message: A2aMessage };

/** Params of `GetTask`. */
export interface A2aGetTaskRequest {
  id: string;
  historyLength?: number;
  tenant?: string;
}

/** Params of `CancelTask`. */
export interface A2aCancelTaskRequest {
  id: string;
  metadata?: A2aMetadata;
  tenant?: string;
}

/** Params of `ListTasks`. */
export interface A2aListTasksRequest {
  contextId?: string;
  /** Only tasks in this state (`TASK_STATE_UNSPECIFIED` means no filter). */
  status?: A2aTaskState | 'TASK_STATE_UNSPECIFIED';
  /** 1..100, default 50. */
  pageSize?: number;
  /** Opaque cursor from a previous `nextPageToken`. */
  pageToken?: string;
  historyLength?: number;
  /** Inclusive lower bound on `status.timestamp` (ISO-8601). */
  statusTimestampAfter?: string;
  /** Artifacts are omitted unless true. */
  includeArtifacts?: boolean;
  tenant?: string;
}

/** Result of `ListTasks`. `nextPageToken` is `""` on the last page. */
export interface A2aListTasksResponse {
  tasks: A2aTask[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** Push-notification registration (unsupported by this module; typed for completeness). */
export interface A2aTaskPushNotificationConfig {
  taskId?: string;
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
  tenant?: string;
}

/** Streaming event (unsupported by this server; typed for clients): exactly one member is set. */
export type A2aStreamResponse =
  | { task: A2aTask }
  | { message: A2aMessage }
  | { statusUpdate: { taskId: string; contextId: string; status: A2aTaskStatus; metadata?: A2aMetadata } }
  | {
      artifactUpdate: {
        taskId: string;
        contextId: string;
        artifact: A2aArtifact;
        append?: boolean;
        lastChunk?: boolean;
        metadata?: A2aMetadata;
      };
    };

/** One transport an agent is reachable on, in preference order. */
export interface A2aAgentInterface {
  url: string;
  /** `JSONRPC`, `GRPC`, `HTTP+JSON` or a custom URI. */
  protocolBinding: string;
  protocolVersion: string;
  tenant?: string;
}

/** Organization behind an agent. */
export interface A2aAgentProvider {
  organization: string;
  url: string;
}

/** An extension an agent supports. */
export interface A2aAgentExtension {
  uri: string;
  description?: string;
  required?: boolean;
  params?: A2aMetadata;
}

/** What the agent can do beyond plain request/response. */
export interface A2aAgentCapabilities {
  streaming?: boolean;
  pushNotifications?: boolean;
  extendedAgentCard?: boolean;
  extensions?: A2aAgentExtension[];
}

/** OAuth 2.0 flows (one member set). */
export interface A2aOAuthFlows {
  authorizationCode?: {
    authorizationUrl: string;
    tokenUrl: string;
    refreshUrl?: string;
    scopes: Record<string, string>;
    pkceRequired?: boolean;
  };
  clientCredentials?: { tokenUrl: string; refreshUrl?: string; scopes: Record<string, string> };
  deviceCode?: {
    deviceAuthorizationUrl: string;
    tokenUrl: string;
    refreshUrl?: string;
    scopes: Record<string, string>;
  };
}

/** A security scheme: exactly one member is set (ProtoJSON oneof). */
export type A2aSecurityScheme =
  | { apiKeySecurityScheme: { location: string; name: string; description?: string } }
  | { httpAuthSecurityScheme: { scheme: string; bearerFormat?: string; description?: string } }
  | { oauth2SecurityScheme: { flows: A2aOAuthFlows; oauth2MetadataUrl?: string; description?: string } }
  | { openIdConnectSecurityScheme: { openIdConnectUrl: string; description?: string } }
  | { mtlsSecurityScheme: { description?: string } };

/** One alternative set of schemes (and scopes) a caller must satisfy. */
export interface A2aSecurityRequirement {
  schemes: Record<string, { list: string[] }>;
}

/** A skill the agent offers. */
export interface A2aAgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  securityRequirements?: A2aSecurityRequirement[];
}

/** A JWS signature over the canonical card. */
export interface A2aAgentCardSignature {
  protected: string;
  signature: string;
  header?: A2aMetadata;
}

/** The public discovery document served at `/.well-known/agent-card.json` (A2A 1.0 AgentCard). */
export interface A2aAgentCard {
  name: string;
  description: string;
  supportedInterfaces: A2aAgentInterface[];
  provider?: A2aAgentProvider;
  version: string;
  documentationUrl?: string;
  capabilities: A2aAgentCapabilities;
  securitySchemes?: Record<string, A2aSecurityScheme>;
  securityRequirements?: A2aSecurityRequirement[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: A2aAgentSkill[];
  signatures?: A2aAgentCardSignature[];
  iconUrl?: string;
}

/** One typed detail in the `data` array of an A2A JSON-RPC error. */
export type A2aErrorDetail =
  | {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo';
      reason: string;
      domain: string;
      metadata?: Record<string, string>;
    }
  | {
      '@type': 'type.googleapis.com/google.rpc.BadRequest';
      fieldViolations: { field: string; description: string }[];
    }
  | { '@type': string; [key: string]: unknown };
