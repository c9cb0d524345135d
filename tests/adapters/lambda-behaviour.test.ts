/**
 * The cross-runtime behaviour suite through charter/lambda: each Request of the suite becomes the event
 * an integration sends (payload 1.0 for REST APIs, 2.0 for HTTP APIs, the ALB's two modes), goes
 * through the handler, and the result comes back as the Response the client would get. Buffered
 * integrations deliver a response whole, so the SSE check is listed as what they cannot do; the
 * Function URL runs through the streaming handler (under the stand-in `awslambda` runtime) and passes
 * every check, SSE included. The app comes from the built package.
 */
import { afterAll, beforeAll } from 'bun:test';
import { type LambdaHttpEvent, toLambdaHandler, toLambdaStreamHandler } from 'charter/lambda';
import { createBehaviourApp } from './behaviour/app.ts';
import { describeBehaviour } from './behaviour/bun.ts';
import type { BehaviourTarget } from './behaviour/checks.ts';
import { type EventKind, eventFor, responseFor } from './fixtures/lambda/events.ts';
import { installFakeAwsLambda, invokeStreaming } from './fixtures/lambda/fake-runtime.ts';

const BASE_URL = 'https://abcde12345.execute-api.us-east-1.amazonaws.com';
const BUFFERED =
  'a buffered integration (API Gateway, ALB) sends the response once the function returns; stream with toLambdaStreamHandler';

function bufferedTarget(kind: EventKind): BehaviourTarget {
  const handler = toLambdaHandler(createBehaviourApp());
  return {
    baseUrl: BASE_URL,
    async fetch(request) {
      const event = (await eventFor(request, kind)) as LambdaHttpEvent;
      return responseFor((await handler(event)) as unknown as Record<string, unknown>);
    },
  };
}

// An ALB target group with multi-value headers off passes one value per name, the last one, both ways
// ("Multi-value headers", Elastic Load Balancing guide): repeated query parameters and a second
// Set-Cookie cannot cross it.
const ONE_VALUE =
  'an ALB target group with multi-value headers off keeps one value per name; turn lambda.multi_value_headers.enabled on';

for (const kind of ['api-gateway-v1', 'http-api-v1', 'api-gateway-v2', 'alb', 'alb-multi-value'] as const) {
  const target = bufferedTarget(kind);
  describeBehaviour(`charter/lambda (${kind}, buffered)`, () => target, {
    except: {
      'streaming: an SSE route sends its first event before the stream ends': BUFFERED,
      ...(kind === 'alb'
        ? {
            'query: single and repeated parameters arrive decoded': ONE_VALUE,
            'cookies: the Cookie header arrives, two Set-Cookie fields stay apart': ONE_VALUE,
            'typed client: calls the operations and sees a refused call as UnexpectedStatusError': ONE_VALUE,
          }
        : {}),
    },
  });
}

let uninstall: () => void = () => {};
let streaming: BehaviourTarget | undefined;
beforeAll(() => {
  uninstall = installFakeAwsLambda().uninstall;
  const handler = toLambdaStreamHandler(createBehaviourApp());
  streaming = {
    baseUrl: 'https://abcdefghijklmnop.lambda-url.us-east-1.on.aws',
    async fetch(request) {
      const call = invokeStreaming(handler, (await eventFor(request, 'function-url')) as LambdaHttpEvent);
      // The client has the response as soon as the prelude is out; an invocation error rejects it.
      return Promise.race([call.response, call.done.then(() => call.response)]);
    },
  };
});
afterAll(() => uninstall());

describeBehaviour('charter/lambda (function-url, toLambdaStreamHandler)', () => {
  if (streaming === undefined) throw new Error('the streaming handler was not set up');
  return streaming;
});
