/**
 * For adapters of platforms that answer requests but cannot hold a WebSocket (serverless functions,
 * edge runtimes without an upgrade API): the App's answer, with the two ends such a platform needs.
 */
import type { App } from '../app/app.ts';
import { HttpError, InternalError, renderError } from '../errors/index.ts';
import { takeWsUpgrade } from './route.ts';

/**
 * Answers `request` with the App. A WebSocket handshake the App accepted (a route registered after
 * the adapter refused the App's WebSocket routes, by a plugin) cannot be completed here: it gets a
 * 501 problem naming `platform`. An App that throws instead of answering gets its redacted 500,
 * logged.
 */
export async function handleWithoutWebSockets(
  app: App,
  request: Request,
  platform: string,
): Promise<Response> {
  try {
    const response = await app.handle(request);
    if (takeWsUpgrade(request, response) !== undefined) {
      response.body?.cancel().catch(() => {});
      const refusal = new HttpError({
        status: 501,
        detail: `WebSocket upgrades are not supported on ${platform}`,
        internal: false,
      });
      return renderError(refusal, app.options.production).response;
    }
    return response;
  } catch (error) {
    app.logger.error('The app threw instead of answering', { method: request.method, error });
    return renderError(new InternalError(), app.options.production).response;
  }
}
