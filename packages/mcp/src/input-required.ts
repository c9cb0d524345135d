/**
 * The multi round-trip flow of 2026-07-28 ("Multi Round-Trip Requests"): a `tools/call`,
 * `resources/read` or `prompts/get` handler answers `inputRequired(...)`; the client fulfils the
 * requests and retries the same call with `inputResponses` and the `requestState` it was given.
 * The state is sealed here (request-state.ts) and verified before the handler sees it again.
 */
import { encodeBase64Url } from '@charter/core';
import { MCP_ERROR_CODES } from './constants.ts';
import { McpError } from './errors.ts';
import { reasonMessage, type RequestStateBinding } from './request-state.ts';
import { type McpCall, type MethodResult, invalidParams, isRecord } from './server.ts';
import type { McpInputRequest, McpInputRequired } from './types.ts';

/** The capability each kind of input request needs from the client. */
const CAPABILITY_OF: Readonly<Record<McpInputRequest['method'], string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * An input-required answer for a tool, resource or prompt handler: the requests for the client,
 * keyed by ids of your choosing, and optionally any JSON value to get back (as
 * `ctx.requestState`) on the retry.
 */
export function inputRequired(options: {
  inputRequests?: Readonly<Record<string, McpInputRequest>>;
  requestState?: unknown;
}): McpInputRequired {
  return Object.freeze({ resultType: 'input_required', ...options });
}

/** Whether a handler's answer is an input-required one. */
export function isInputRequired(value: unknown): value is McpInputRequired {
  return isRecord(value) && value.resultType === 'input_required';
}

const encoder = new TextEncoder();

/**
 * Who the caller is, for binding a state to them: the configured function, else a SHA-256 digest
 * of the Authorization header (a state issued to one credential is useless with another).
 */
export async function principalOf(call: McpCall): Promise<string | undefined> {
  const custom = call.server.options.requestStatePrincipal;
  if (custom !== undefined) return custom(call.ctx.request);
  const authorization = call.ctx.request.headers.get('authorization');
  if (authorization === null) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(authorization));
  return encodeBase64Url(new Uint8Array(digest));
}

/** What a state is bound to: the method, its target (tool or prompt name, resource URI), the arguments and the caller. */
export async function bindingOf(call: McpCall, target: string, args: unknown): Promise<RequestStateBinding> {
  return { method: call.ctx.method, target, arguments: args, principal: await principalOf(call) };
}

/**
 * Reads `inputResponses` and `requestState` of a retry. The state is opened against this call's
 * binding: forged, altered, expired, re-bound and replayed states all get -32602 before any handler
 * runs. Returns what the context should carry.
 */
export async function openRetry(
  call: McpCall,
  target: string,
  args: unknown,
): Promise<{ inputResponses?: Readonly<Record<string, unknown>>; requestState?: unknown }> {
  const { inputResponses, requestState } = call.params;
  if (call.ctx.era === 'legacy') return {};
  const out: { inputResponses?: Readonly<Record<string, unknown>>; requestState?: unknown } = {};
  if (inputResponses !== undefined) {
    if (!isRecord(inputResponses)) throw invalidParams('params.inputResponses must be an object');
    out.inputResponses = inputResponses;
  }
  if (requestState !== undefined) {
    const opened = await call.server.sealer.open(requestState, await bindingOf(call, target, args));
    if (!opened.ok) throw invalidParams(`Invalid requestState: ${reasonMessage(opened.reason)}`);
    out.requestState = opened.value;
  }
  return out;
}

/** A handler bug (not the client's fault): -32603, detail shown only where internal errors are. */
function handlerBug(message: string): Error {
  return new Error(message);
}

/**
 * Turns a handler's input-required answer into the interim result: checks the requests (known
 * methods, each needing a capability the request declared, else -32021 naming them), seals the
 * state. The legacy era has no way to carry it.
 */
export async function inputRequiredResult(
  call: McpCall,
  answer: McpInputRequired,
  target: string,
  args: unknown,
): Promise<MethodResult> {
  if (call.ctx.era === 'legacy') {
    throw new McpError(
      MCP_ERROR_CODES.internalError,
      `This request needs input from the client, which protocol revision ${call.ctx.protocolVersion} cannot ask for; use 2026-07-28`,
    );
  }
  const { inputRequests, requestState } = answer;
  if (inputRequests === undefined && requestState === undefined) {
    throw handlerBug('an input-required answer needs inputRequests, requestState or both');
  }
  const result: Record<string, unknown> = {};
  if (inputRequests !== undefined) {
    if (!isRecord(inputRequests) || Object.keys(inputRequests).length === 0) {
      throw handlerBug('inputRequired: inputRequests must be a non-empty object of requests');
    }
    const missing: Record<string, Record<string, never>> = {};
    for (const [key, request] of Object.entries(inputRequests)) {
      const capability = isRecord(request)
        ? CAPABILITY_OF[request.method as McpInputRequest['method']]
        : undefined;
      if (capability === undefined) {
        throw handlerBug(
          `inputRequired: inputRequests[${JSON.stringify(key)}] must use elicitation/create, sampling/createMessage or roots/list`,
        );
      }
      if (!isRecord(call.ctx.clientCapabilities[capability])) missing[capability] = {};
    }
    if (Object.keys(missing).length > 0) {
      // 2026-07-28: never ask for what the client cannot give; name the capabilities as a
      // ClientCapabilities object.
      throw new McpError(
        MCP_ERROR_CODES.missingRequiredClientCapability,
        `Missing required client capability: ${Object.keys(missing).join(', ')}`,
        { status: 400, data: { requiredCapabilities: missing } },
      );
    }
    result.inputRequests = inputRequests;
  }
  if (requestState !== undefined) {
    result.requestState = await call.server.sealer.seal(requestState, await bindingOf(call, target, args));
  }
  return { result, inputRequired: true };
}
