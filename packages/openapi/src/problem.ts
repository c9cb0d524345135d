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
