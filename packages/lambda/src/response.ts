/**
 * From the App's `Response` to the result each integration expects: payload 1.0 (`multiValueHeaders`),
 * payload 2.0 and Function URLs (`headers` plus a `cookies` array, each one a Set-Cookie field), and
 * the ALB (`statusDescription`, and `multiValueHeaders` only when the target group has multi-value
 * headers on, which the event's own shape tells).
 */
import { type Logger, responsePayload, statusTitle } from '@charter/core';
import type {
  AlbResult,
  ApiGatewayV1Result,
  ApiGatewayV2Result,
  LambdaEventSource,
  LambdaHttpResult,
} from './events.ts';
import { encodeBody, isTextual } from './media.ts';

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection; the platform makes its own to the
// client ("The load balancer does not honor hop-by-hop headers").
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

/** The response's fields, Set-Cookie apart (each cookie must stay its own field, RFC 6265 §3). */
export function responseFields(response: Response): { fields: Array<[string, string]>; cookies: string[] } {
  const fields: Array<[string, string]> = [];
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie' || HOP_BY_HOP.has(name)) continue;
    fields.push([name, value]);
  }
  return { fields, cookies: response.headers.getSetCookie() };
}

async function bodyOf(
  response: Response,
  method: string,
): Promise<{ body: string; isBase64Encoded: boolean }> {
  if (method === 'HEAD' || response.body === null) {
    response.body?.cancel().catch(() => {});
    return { body: '', isBase64Encoded: false };
  }
  const textual = isTextual(response.headers.get('content-type'), response.headers.get('content-encoding'));
  // Text the pipeline built (a JSON body, a problem document) is sent as it is, its stream never read.
  const payload = textual ? responsePayload(response) : undefined;
  if (payload !== undefined) {
    response.body.cancel().catch(() => {});
    return { body: payload, isBase64Encoded: false };
  }
  return encodeBody(new Uint8Array(await response.arrayBuffer()), textual);
}

export interface ResultOptions {
  source: LambdaEventSource;
  /** The request's method: a HEAD answer has no body. */
  method: string;
  /** ALB only: the event came with `multiValueHeaders` (the target group's multi-value mode). */
  multiValue: boolean;
  logger: Logger;
}

/** The integration's result for `response`, its body read whole. */
export async function toLambdaResult(response: Response, options: ResultOptions): Promise<LambdaHttpResult> {
  const { fields, cookies } = responseFields(response);
  const { body, isBase64Encoded } = await bodyOf(response, options.method);
  const statusCode = response.status;
  switch (options.source) {
    case 'api-gateway-v2':
    case 'function-url': {
      const result: ApiGatewayV2Result = {
        statusCode,
        headers: singleMap(fields),
        cookies,
        body,
        isBase64Encoded,
      };
      return result;
    }
    case 'api-gateway-v1': {
      const result: ApiGatewayV1Result = {
        statusCode,
        multiValueHeaders: multiMap(fields, cookies),
        body,
        isBase64Encoded,
      };
      return result;
    }
    case 'alb': {
      const statusDescription = `${statusCode} ${statusTitle(statusCode)}`;
      if (options.multiValue) {
        const result: AlbResult = {
          statusCode,
          statusDescription,
          multiValueHeaders: multiMap(fields, cookies),
          body,
          isBase64Encoded,
        };
        return result;
      }
      const headers = singleMap(fields);
      if (cookies.length > 0) {
        // Without multi-value headers one name carries one value: a second cookie cannot be sent.
        if (cookies.length > 1) {
          options.logger.warn(
            'The ALB target group has multi-value headers off: only the last of the response cookies is sent',
            { cookies: cookies.length },
          );
        }
        headers['set-cookie'] = cookies[cookies.length - 1] as string;
      }
      const result: AlbResult = { statusCode, statusDescription, headers, body, isBase64Encoded };
      return result;
    }
  }
}

/** One value per name: Headers already joined repeated fields with ", " (RFC 9110 §5.3). */
export function singleMap(fields: ReadonlyArray<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of fields) out[name] = value;
  return out;
}

export function multiMap(
  fields: ReadonlyArray<[string, string]>,
  cookies: readonly string[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of fields) out[name] = [value];
  if (cookies.length > 0) out['set-cookie'] = [...cookies];
  return out;
}
