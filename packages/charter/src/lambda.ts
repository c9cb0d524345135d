/**
 * @module charter/lambda — the AWS Lambda adapter (API Gateway REST and HTTP APIs, ALB, Function URLs,
 * response streaming). Re-exports `@charter/lambda`.
 */
export * from '@charter/lambda';
