import { BadRequestError, PROBLEM_CONTENT_TYPE, RequestHeaderFieldsTooLargeError } from '../errors/index.ts';
import type { LoadShedder } from './load-shedding.ts';
import { fieldBlock, type WireHeaders } from './planned-response.ts';
import { headerCount } from './request-parts.ts';
import { mutableResponse, setResponseHeaders } from './response-headers.ts';

/** The App-wide guards of step 0 and of the response, decided once when the App is built. */
export interface PerimeterPlan {
  /** Most header fields (the request is refused at this count); 0 disables. */
  readonly maxHeaderCount: number;
  readonly shedder: LoadShedder | undefined;
  /** Refuse forwarded headers: production with no proxy posture configured. */
  readonly refuseForwarded: boolean;
  /** Security headers added to every response that lacks them. */
  readonly responseHeaders: ReadonlyArray<readonly [string, string]>;
  readonly stripServerHeaders: boolean;
  /** The header set of the pipeline's own problem responses (`problemHeaderSet`). */
  readonly problemHeaders: ProblemHeaderSet;
}

/** Step 0: the checks that run before any hook sees the request. */
export function guardPerimeter(plan: PerimeterPlan, request: Request, inFlight: number): void {
  // RFC 6585 §5: a header flood is refused before any hook spends work on it.
  // One read of the getter (native on Bun) for both checks.
  const headers = request.headers;
  const max = plan.maxHeaderCount;
  if (max > 0 && headerCount(headers) >= max) {
    throw new RequestHeaderFieldsTooLargeError(`The request has more than ${max - 1} header fields`);
  }
  // The Host field (one, valid) was checked with the target, before the exchange (request-target.ts).
  if (plan.shedder !== undefined) plan.shedder.check(inFlight);
  if (plan.refuseForwarded) {
    if (headers.has('x-forwarded-for') || headers.has('forwarded')) {
      // Without a posture nobody knows which hop to believe (RFC 7239 §8.1): refuse, do not guess.
      throw new BadRequestError(
        'The request carries X-Forwarded-For or Forwarded, but this server has no proxy posture ' +
          '(App option behindProxy), so it cannot tell which address to trust',
      );
    }
  }
}

/** The problem header set, with the Response init of each status answered on it. */
export interface ProblemHeaderSet extends WireHeaders {
  /** `{ status, headers }` for `new Response(body, init)`, made once per status and reused. */
  init(status: number): ResponseInit;
}

/**
 * The header set of a problem response the pipeline builds itself: the problem content type plus the
 * App's security headers. Built once, with the App's perimeter plan; `new Response(body, init)`
 * copies it, and planned answers write its lines as they are (its `Headers` are made on first use:
 * planned-response.ts, `fieldBlock`). The init objects are kept per status: Bun's Response
 * constructor reads a reused init noticeably faster than a fresh object literal.
 */
export function problemHeaderSet(
  responseHeaders: ReadonlyArray<readonly [string, string]>,
): ProblemHeaderSet {
  return Object.freeze(
    new ProblemBlock(fieldBlock([['content-type', PROBLEM_CONTENT_TYPE], ...responseHeaders])),
  );
}

class ProblemBlock implements ProblemHeaderSet {
  readonly #wire: WireHeaders;
  readonly #inits = new Map<number, ResponseInit>();
  readonly lines: readonly string[];

  constructor(wire: WireHeaders) {
    this.#wire = wire;
    this.lines = wire.lines;
  }

  get headers(): Headers {
    return this.#wire.headers;
  }

  init(status: number): ResponseInit {
    let found = this.#inits.get(status);
    if (found === undefined) {
      found = Object.freeze({ status, headers: this.#wire.headers });
      this.#inits.set(status, found);
    }
    return found;
  }
}

// Headers that advertise the server software: a free map of which exploits to try.
const SERVER_HEADERS = ['server', 'x-powered-by'] as const;

/** Whether the response path adds or removes anything at all. */
export function hardensResponses(plan: PerimeterPlan): boolean {
  return plan.stripServerHeaders || plan.responseHeaders.length > 0;
}

/**
 * The response guards: strips `Server`/`X-Powered-By` and adds each security header the response
 * does not set itself (a route serving HTML may bring its own CSP). Responses whose headers are
 * immutable (from `fetch()`) are copied first.
 */
export function hardenResponse(plan: PerimeterPlan, response: Response): Response {
  let out = response;
  if (plan.stripServerHeaders) {
    for (const name of SERVER_HEADERS) {
      if (!out.headers.has(name)) continue;
      out = mutableResponse(out);
      out.headers.delete(name);
    }
  }
  return plan.responseHeaders.length === 0
    ? out
    : setResponseHeaders(out, plan.responseHeaders, { overwrite: false });
}
