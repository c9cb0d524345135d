import { App as CoreApp, type AppOptions as CoreAppOptions } from '@charter/core';
import { mountDocs } from '@charter/docs';
import { type MountedOpenAPI, mountOpenAPI, type OpenAPIMountOptions } from '@charter/openapi';

/** Options of the `/docs` page (`docs` App option): which UI, its assets, title and configuration. */
export type DocsRouteOptions = Omit<NonNullable<Parameters<typeof mountDocs>[1]>, 'specUrl'>;

/** `new App(options)`: the core options plus the contract routes. */
export interface AppOptions extends CoreAppOptions {
  /**
   * Serve the OpenAPI document: GET `/openapi.json` and `/openapi.yaml` (`true`, or options for paths,
   * info, servers, webhooks, named schemas). Implied by `docs`.
   */
  openapi?: boolean | OpenAPIMountOptions;
  /**
   * Interactive docs at GET `/docs` (plus the OpenAPI routes): `true`, options (UI, assets...),
   * `'auto'` (on unless in production), or `false` (default).
   */
  docs?: boolean | 'auto' | DocsRouteOptions;
}

function docsEnabled(option: AppOptions['docs'], production: boolean): DocsRouteOptions | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return {};
  if (option === 'auto') return production ? undefined : {};
  if (typeof option === 'object' && option !== null) return option;
  throw new TypeError(
    `App option docs must be true, false, "auto" or an options object, got ${String(option)}`,
  );
}

/**
 * A Charter application (see the core App), plus the routes derived from the contract: with the
 * `openapi` option it serves the OpenAPI document, with `docs` an interactive docs page too.
 */
export class App extends CoreApp {
  /** The core options plus `openapi` and `docs`: any other key is refused with a did-you-mean. */
  static override readonly optionNames: readonly string[] = Object.freeze([
    ...CoreApp.optionNames,
    'openapi',
    'docs',
  ]);

  /** The mounted OpenAPI document, when the `openapi` or `docs` option is on. */
  readonly openapi: MountedOpenAPI | undefined;
  /** The path of the interactive docs page (`docs` option), else undefined; the startup banner links to it. */
  readonly docsPath: string | undefined;

  constructor(options: AppOptions = {}) {
    super(options);
    // The same test as the core's (`production` defaults from `env`, and an explicit value wins).
    const production = this.options.production;
    const docs = docsEnabled(options.docs, production);
    const openapiOption = options.openapi;
    if (
      openapiOption !== undefined &&
      typeof openapiOption !== 'boolean' &&
      (typeof openapiOption !== 'object' || openapiOption === null)
    ) {
      throw new TypeError('App option openapi must be a boolean or an options object');
    }
    // Checked on the option, not its outcome: `docs: 'auto'` with `openapi: false` is as wrong in
    // development as in production.
    if (openapiOption === false && options.docs !== undefined && options.docs !== false) {
      throw new TypeError('App option docs needs the OpenAPI document; remove openapi: false');
    }
    const mountSpec = docs !== undefined || (openapiOption !== undefined && openapiOption !== false);
    this.openapi = mountSpec
      ? mountOpenAPI(this, typeof openapiOption === 'object' ? openapiOption : {})
      : undefined;
    if (docs !== undefined && this.openapi !== undefined) {
      mountDocs(this, { ...docs, specUrl: this.openapi.path });
      this.docsPath = docs.path ?? '/docs';
    } else {
      this.docsPath = undefined;
    }
  }

  /**
   * Resolves once every plugin is installed and the boot guards passed; with the OpenAPI document
   * mounted, once it is generated too. A route the document cannot describe (a security scheme nobody
   * declared, a schema with no JSON Schema such as a `Date`) then fails here, at `ready()` and at
   * `serve()`, with the generator's message, instead of as a 500 on the first request for it.
   */
  override async ready(): Promise<this> {
    await super.ready();
    this.openapi?.document();
    return this;
  }
}

// `console.log(app)` and stack traces show the class's name: the package build minifies identifiers.
Object.defineProperty(App, 'name', { value: 'App', configurable: true });

/** Same as `new App(options)`. */
export function createApp(options?: AppOptions): App {
  return new App(options);
}
