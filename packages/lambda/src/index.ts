/**
 * @module charter/lambda
 * The AWS Lambda adapter. `toLambdaHandler(app)` answers API Gateway REST APIs (payload 1.0), HTTP
 * APIs (payload 1.0 and 2.0), Function URLs and Application Load Balancers, each event turned into a
 * Web `Request` and the App's `Response` into the result that integration expects (base64 for binary
 * bodies, Set-Cookie as cookies or multi-value headers). `toLambdaStreamHandler(app)` streams the
 * response through `awslambda.streamifyResponse`, for SSE and NDJSON routes. `lambdaInvocation(ctx.request)`
 * gives the event, its `requestContext` and the Lambda context to handlers and hooks.
 */
export type {
  AlbEvent,
  AlbResult,
  ApiGatewayV1Event,
  ApiGatewayV1Result,
  ApiGatewayV2Event,
  ApiGatewayV2Result,
  LambdaContext,
  LambdaEventSource,
  LambdaHttpEvent,
  LambdaHttpResult,
} from './events.ts';
export { type LambdaHandler, toLambdaHandler } from './handler.ts';
export { type LambdaInvocation, lambdaInvocation } from './invocation.ts';
export { isTextual } from './media.ts';
export type { LambdaHandlerOptions } from './options.ts';
export { LambdaEventError } from './request.ts';
export {
  type AwsLambdaGlobal,
  type LambdaResponseStream,
  type LambdaStreamHandler,
  type LambdaStreamMetadata,
  toLambdaStreamHandler,
} from './stream.ts';
