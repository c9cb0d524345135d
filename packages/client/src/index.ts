/**
 * @module charter/client
 * The typed client derived from the route definitions (no code generation) and the contract tests.
 */
export { createClient, createInProcessClient } from './client.ts';
export { ResponseParseError, ResponseValidationError, UnexpectedStatusError } from './errors.ts';
export {
  type ClientOptions,
  type ClientFetch,
  type InProcessClientOptions,
} from './options.ts';
export type {
  Client,
  ClientApp,
  ClientResponse,
  HeadersInput,
  InProcessClientApp,
  InputOf,
  OperationInput,
  OperationMethod,
  ParamValue,
  QueryInput,
  QueryValue,
  RawBody,
  ResponseOf,
} from './types.ts';
export {
  CONTRACT_ISSUE_CODES,
  type ContractIssue,
  type ContractIssueCode,
  type ContractReport,
  type ContractTestOptions,
} from './contract/issues.ts';
export { type ContractApp, runContractTests } from './contract/run.ts';
export { type SampleResult, sampleFromJsonSchema } from './contract/sample.ts';
export {
  type ContractFuzzOptions,
  type FuzzAnswer,
  type FuzzFinding,
  type FuzzReport,
  type FuzzRequest,
  replayRequest,
} from './contract/fuzz.ts';
export { FUZZ_FINDING_CODES, FUZZ_WARNING_CODES } from './contract/fuzz-check.ts';
export { checkJsonSchema } from './contract/json-schema-check.ts';
