/**
 * The schemas of the response header fields the site adds to many routes, named once so the OpenAPI
 * document lists each as one component instead of a component named after the first route using it.
 */
import { type } from 'arktype';

/** An integer field: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, `Retry-After`. */
export const HeaderInteger = type('number.integer').describe('A non-negative integer');

/** A structured or free-form text field: `RateLimit`, `RateLimit-Policy`, `WWW-Authenticate`. */
export const HeaderText = type('string');

/** `API-Version`: always the current major. */
export const ApiMajorHeader = type("'1'").describe('The API major version');
