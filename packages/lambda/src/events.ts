/**
 * The shapes AWS Lambda receives and returns for HTTP, written from the platform documentation (no
 * `@types/aws-lambda` dependency): API Gateway REST APIs and HTTP APIs with payload format 1.0
 * ("Input format of a Lambda function for proxy integration"), HTTP APIs with payload format 2.0 and
 * Function URLs (which use the 2.0 shape), and Application Load Balancer target groups ("Lambda
 * functions as targets"). Only the fields the adapter reads are typed precisely; the platforms add
 * more, and every event is handed to the app as it arrived.
 */

/** Headers as the 1.0 and ALB shapes carry them: one value per name. */
export type SingleValueMap = Record<string, string | undefined> | null | undefined;
/** Headers or query parameters with every value (1.0 shape, ALB with multi-value headers on). */
export type MultiValueMap = Record<string, readonly string[] | undefined> | null | undefined;

/** API Gateway REST API, or HTTP API with payload format 1.0. */
export interface ApiGatewayV1Event {
  version?: '1.0';
  resource?: string;
  /** The request path, without the stage (with a custom domain's base path mapping, with it). */
  path: string;
  httpMethod: string;
  headers?: SingleValueMap;
  multiValueHeaders?: MultiValueMap;
  /** Decoded values; the last one of a repeated name. */
  queryStringParameters?: SingleValueMap;
  /** Decoded values, every one. */
  multiValueQueryStringParameters?: MultiValueMap;
  pathParameters?: Record<string, string | undefined> | null;
  stageVariables?: Record<string, string | undefined> | null;
  requestContext: ApiGatewayV1RequestContext;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface ApiGatewayV1RequestContext {
  accountId?: string;
  apiId?: string;
  stage?: string;
  requestId?: string;
  httpMethod?: string;
  path?: string;
  protocol?: string;
  domainName?: string;
  authorizer?: Record<string, unknown> | null;
  /** `sourceIp` is the address of the client that connected to API Gateway. */
  identity?: { sourceIp?: string; userAgent?: string | null; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/** API Gateway HTTP API with payload format 2.0, and Lambda Function URLs. */
export interface ApiGatewayV2Event {
  version: '2.0';
  routeKey?: string;
  rawPath: string;
  /** The query string as the client sent it, without the `?`. */
  rawQueryString?: string;
  /** Every `Cookie` header value, split at `;` (the `headers` map has no `cookie`). */
  cookies?: readonly string[];
  /** Lower-case names; repeated fields joined with commas. */
  headers?: SingleValueMap;
  queryStringParameters?: SingleValueMap;
  pathParameters?: Record<string, string | undefined> | null;
  stageVariables?: Record<string, string | undefined> | null;
  requestContext: ApiGatewayV2RequestContext;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface ApiGatewayV2RequestContext {
  accountId?: string;
  apiId?: string;
  domainName?: string;
  domainPrefix?: string;
  requestId?: string;
  routeKey?: string;
  stage?: string;
  time?: string;
  timeEpoch?: number;
  authorizer?: Record<string, unknown>;
  authentication?: Record<string, unknown> | null;
  /** `sourceIp` is the address of the client that connected to API Gateway or the Function URL. */
  http: { method: string; path?: string; protocol?: string; sourceIp?: string; userAgent?: string };
  [key: string]: unknown;
}

/** An Application Load Balancer target group of type `lambda`. */
export interface AlbEvent {
  requestContext: { elb: { targetGroupArn?: string } };
  httpMethod: string;
  path: string;
  /** Values as the client sent them: the load balancer does not decode them. */
  queryStringParameters?: SingleValueMap;
  multiValueQueryStringParameters?: MultiValueMap;
  headers?: SingleValueMap;
  multiValueHeaders?: MultiValueMap;
  body?: string | null;
  isBase64Encoded?: boolean;
}

/** Every event `toLambdaHandler` understands. */
export type LambdaHttpEvent = ApiGatewayV1Event | ApiGatewayV2Event | AlbEvent;

/** Which integration sent an event. */
export type LambdaEventSource = 'api-gateway-v1' | 'api-gateway-v2' | 'function-url' | 'alb';

/** The Lambda context object of the Node.js runtime (the fields an HTTP app may want). */
export interface LambdaContext {
  awsRequestId?: string;
  functionName?: string;
  functionVersion?: string;
  invokedFunctionArn?: string;
  memoryLimitInMB?: string;
  logGroupName?: string;
  logStreamName?: string;
  callbackWaitsForEmptyEventLoop?: boolean;
  getRemainingTimeInMillis?(): number;
  [key: string]: unknown;
}

/** The response of a payload 1.0 integration (REST API, or HTTP API with 1.0). */
export interface ApiGatewayV1Result {
  statusCode: number;
  multiValueHeaders: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** The response of a payload 2.0 integration or a Function URL. */
export interface ApiGatewayV2Result {
  statusCode: number;
  headers: Record<string, string>;
  /** Each becomes one `Set-Cookie` field. */
  cookies: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** The response to an Application Load Balancer. */
export interface AlbResult {
  statusCode: number;
  /** The status code and reason phrase, separated by a single space. */
  statusDescription: string;
  /** With multi-value headers off. */
  headers?: Record<string, string>;
  /** With multi-value headers on (the target group attribute `lambda.multi_value_headers.enabled`). */
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** What `toLambdaHandler` returns: the result shape follows the event's. */
export type LambdaHttpResult = ApiGatewayV1Result | ApiGatewayV2Result | AlbResult;
