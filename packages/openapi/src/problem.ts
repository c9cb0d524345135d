import type { JsonSchema } from '@charter/core';

/** Component name of the RFC 9457 problem document every Charter error answers with. */
export const PROBLEM_DETAILS = 'ProblemDetails';

/** RFC 9457 §3.1: the members of a problem document; extension members are allowed (§3.2). */
export const PROBLEM_DETAILS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'An RFC 9457 problem document (application/problem+json).',
  properties: {
    type: { type: 'string', format: 'uri-reference', description: 'Identifies the problem type.' },
    title: { type: 'string', description: 'Short, human-readable summary of the problem type.' },
    status: { type: 'integer', minimum: 100, maximum: 599, description: 'The HTTP status code.' },
    detail: { type: 'string', description: 'Explanation specific to this occurrence.' },
    instance: { type: 'string', format: 'uri-reference', description: 'Identifies this occurrence.' },
  },
  required: ['title', 'status'],
  additionalProperties: true,
};

/** Component name of the validation problem a 422 from the pipeline answers with. */
export const VALIDATION_PROBLEM_DETAILS = 'ValidationProblemDetails';

/** The 422 problem: a problem document whose `issues` member lists each failure (core ValidationError). */
export const VALIDATION_PROBLEM_DETAILS_SCHEMA: JsonSchema = {
  description: 'The problem document of a request that does not match the route schemas.',
  allOf: [{ $ref: `#/components/schemas/${PROBLEM_DETAILS}` }],
  type: 'object',
  properties: {
    issues: {
      type: 'array',
      description: 'One entry per failure: where it is, the path into that part, and what is wrong.',
      items: {
        type: 'object',
        properties: {
          in: { type: 'string', enum: ['params', 'query', 'headers', 'body'] },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          message: { type: 'string' },
        },
        required: ['in', 'path', 'message'],
      },
    },
  },
  required: ['issues'],
};
