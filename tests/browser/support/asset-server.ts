/**
 * A stand-in for the CDN: a second server on 127.0.0.1 serving the five docs UI assets from their
 * registry packages in node_modules, at `/<package>@<version>/<file>` like jsDelivr, with
 * `access-control-allow-origin: *` so that they are genuinely cross-origin CORS loads, as from a CDN.
 */
import { join } from 'node:path';
import {
  DOCS_ASSET_SOURCES,
  DOCS_UIS,
  type DocsAssets,
  type DocsAssetSource,
  type DocsUi,
} from '@charter/docs';

const NODE_MODULES = join(import.meta.dir, '..', '..', '..', 'node_modules');

/** The running asset server. */
export interface AssetServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Each UI's assets on this server, with the pinned integrity hashes. */
  readonly assets: Readonly<Record<DocsUi, DocsAssets>>;
  /** The path of every request served, in order. */
  readonly requests: string[];
  /** The local URL of one default asset. */
  urlOf(source: DocsAssetSource): string;
  stop(): Promise<void>;
}

function pathOf(source: DocsAssetSource): string {
  return `/${source.packageName}@${source.version}/${source.file}`;
}

function contentTypeOf(file: string): string {
  return file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
}

/** Starts the asset server on an ephemeral port. */
export function startAssetServer(): AssetServer {
  const files = new Map(DOCS_ASSET_SOURCES.map((source) => [pathOf(source), source]));
  const requests: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const { pathname } = new URL(request.url);
      requests.push(pathname);
      const source = files.get(pathname);
      if (source === undefined) return new Response('not found', { status: 404 });
      return new Response(Bun.file(join(NODE_MODULES, source.packageName, source.file)), {
        headers: {
          'content-type': contentTypeOf(source.file),
          'access-control-allow-origin': '*',
          'cache-control': 'no-store',
        },
      });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const urlOf = (source: DocsAssetSource): string => `${origin}${pathOf(source)}`;
  const assets = Object.fromEntries(DOCS_UIS.map((ui) => [ui, {} as DocsAssets])) as Record<
    DocsUi,
    DocsAssets
  >;
  for (const source of DOCS_ASSET_SOURCES) {
    assets[source.ui][source.slot] = { url: urlOf(source), integrity: source.integrity };
  }
  return { origin, assets, requests, urlOf, stop: () => server.stop(true) };
}
