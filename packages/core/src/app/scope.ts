import { hookList } from '../pipeline/hook-layers.ts';
import type {
  AnyRouteDefinition,
  DeclaredSchema,
  OperationOf,
  OperationsOfDefinitions,
  OperationUnionOf,
  PrefixOperations,
  RecordedOperations,
  ScopeWithoutOperations,
  WithOperations,
  WithOperationsAdded,
  AuthSpec,
  Handler,
  HookInput,
  Hooks,
  HttpMethod,
  RequestSpec,
  ResponsesSpec,
  RouteContract,
  RouteDefinition,
} from '../types/index.ts';
import { joinPath, normalisePrefix } from './paths.ts';
import { assertShorthandContract } from './route-shape.ts';
import { type Plugin, pluginName, type ScopeOptions } from './plugins.ts';
import type { Registry } from './registry.ts';
import type { CloseListener, ShutdownListener } from './lifecycle.ts';

export interface DecorateOptions {
  /** Replace an existing decoration instead of throwing. */
  override?: boolean;
}

/** How a child scope relates to its parent. */
interface ScopeInit {
  prefix: string;
  tags: readonly string[] | undefined;
  hooks: readonly Hooks[];
  auth: AuthSpec | undefined;
  /** Plugins get their own decorations; groups share their parent's. */
  encapsulated: boolean;
}

/**
 * `app.get(path, contract, handler)` and friends; returns the scope, its type extended with the route.
 * The receiver is a `this` parameter, inferred with the rest (see `WithOperationsAdded`); `void` when
 * the function is called on its own, which works (it is bound to its scope). The type mentions no
 * `this` of the class, so one instance of it serves every scope type of a chain; the price is that a
 * call given its type arguments explicitly types its result from `Scope` (`route()` keeps the scope's
 * type then).
 */
type Shorthand<M extends HttpMethod> = <
  const P extends string,
  Req extends RequestSpec<DeclaredSchema> = {},
  R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
  const O extends string = never,
  This = Scope,
  Prev = unknown,
  Base = unknown,
>(
  this: (This & WithOperations<Prev, Base>) | void,
  path: P,
  contract: RouteContract<Req, R, O>,
  handler: Handler<P, NoInfer<Req>, NoInfer<R>>,
) => WithOperationsAdded<This, Prev, Base, OperationOf<O, M, P, Req, R>>;

/**
 * Where routes, hooks, decorations and plugins are registered. The App is the root scope; groups
 * and plugins are child scopes that add a prefix, tags, hooks and auth to their routes.
 */
export class Scope {
  // No phantom `~operations`/`~scope` members here: a scope's type gains them from its first route
  // (`WithOperationsAdded`). Declaring them on the class made every chained type an intersection of
  // two declarations of each, which tsc merged again for each route (issue 18: 1,000 routes, 5 k
  // fewer types and 6 MB less without them).
  /** @internal */ readonly registry: Registry;
  /** @internal */ readonly parent: Scope | undefined;
  /** @internal */ readonly decorations: object;
  readonly prefix: string;
  readonly #tags: readonly string[] | undefined;
  readonly #auth: AuthSpec | undefined;
  readonly #optionHooks: readonly Hooks[];
  readonly #useHooks: Hooks[] = [];

  /** @internal */
  constructor(registry: Registry, parent: Scope | undefined, init?: ScopeInit) {
    this.registry = registry;
    this.parent = parent;
    this.prefix = joinPath(parent?.prefix ?? '', init?.prefix ?? '');
    this.#tags = mergeTags(parent === undefined ? undefined : parent.#tags, init?.tags);
    this.#auth = init?.auth ?? (parent === undefined ? undefined : parent.#auth);
    this.#optionHooks = init?.hooks ?? [];
    this.decorations =
      parent === undefined ? {} : init?.encapsulated ? Object.create(parent.decorations) : parent.decorations;
  }

  /** @internal */
  get isRoot(): boolean {
    return this.parent === undefined;
  }

  /** @internal The hook layers this scope adds to its routes: its options' hooks, then `use`. */
  layers(): readonly Hooks[] {
    return [...this.#optionHooks, ...this.#useHooks];
  }

  /** @internal */
  routeHookList(definition: AnyRouteDefinition): readonly Hooks[] {
    return hookList(definition.hooks, `Route ${definition.method} ${definition.path}`);
  }

  /**
   * Registers one route. The returned scope's type records the route by operationId, so a chain
   * (`new App().route(a).route(b)`) gives the typed client (`charter/client`) every operation.
   */
  route<
    const M extends HttpMethod,
    const P extends string,
    Req extends RequestSpec<DeclaredSchema> = {},
    R extends ResponsesSpec<DeclaredSchema> = ResponsesSpec,
    const O extends string = never,
    This = this,
    Prev = RecordedOperations<this>,
    Base = ScopeWithoutOperations<this>,
  >(
    this: This & WithOperations<Prev, Base>,
    definition: RouteDefinition<M, P, Req, R, O>,
  ): WithOperationsAdded<This, Prev, Base, OperationOf<O, M, P, Req, R>>;
  route(definition: AnyRouteDefinition): this {
    if (typeof definition !== 'object' || definition === null)
      throw new TypeError('route() takes a route definition');
    if (typeof definition.path !== 'string' || !definition.path.startsWith('/')) {
      throw new TypeError(
        `Route path must be a string starting with "/", got ${JSON.stringify(definition.path)}`,
      );
    }
    const def = definition;
    // Validates hook shapes now, so a typo fails at registration.
    this.routeHookList(def);
    this.registry.addRoute({
      definition: def,
      scope: this,
      path: joinPath(this.prefix, definition.path),
      operationId: definition.operationId,
      tags: mergeTags(this.#tags, definition.tags),
      auth: definition.auth ?? this.#auth,
    });
    return this;
  }

  /** Registers many routes (use `defineRoute` to keep each one typed). */
  registerRoutes<
    const D extends readonly AnyRouteDefinition[],
    This = this,
    Prev = RecordedOperations<this>,
    Base = ScopeWithoutOperations<this>,
  >(
    this: This & WithOperations<Prev, Base>,
    definitions: D,
  ): WithOperationsAdded<This, Prev, Base, OperationsOfDefinitions<D[number]>>;
  registerRoutes(definitions: readonly AnyRouteDefinition[]): this {
    for (const definition of definitions) this.route(definition);
    return this;
  }

  #shorthand<M extends HttpMethod>(method: M): Shorthand<M> {
    return ((path: string, contract: RouteContract, handler: AnyRouteDefinition['handler']) => {
      assertShorthandContract(method, path, contract);
      return this.route({ ...contract, method, path, handler } as AnyRouteDefinition);
    }) as unknown as Shorthand<M>;
  }

  readonly get: Shorthand<'GET'> = this.#shorthand('GET');
  readonly post: Shorthand<'POST'> = this.#shorthand('POST');
  readonly put: Shorthand<'PUT'> = this.#shorthand('PUT');
  readonly patch: Shorthand<'PATCH'> = this.#shorthand('PATCH');
  readonly delete: Shorthand<'DELETE'> = this.#shorthand('DELETE');
  readonly head: Shorthand<'HEAD'> = this.#shorthand('HEAD');

  /**
   * Routes under a prefix sharing tags, hooks and auth. Groups share their parent's decorations.
   * When `register` returns the chained group, the app's type records its routes (with the prefix).
   */
  group<
    const Prefix extends string,
    G = void,
    This = this,
    Prev = RecordedOperations<this>,
    Base = ScopeWithoutOperations<this>,
  >(
    this: This & WithOperations<Prev, Base>,
    prefix: Prefix,
    options: Omit<ScopeOptions, 'prefix'>,
    register: (group: Scope) => G,
  ): WithOperationsAdded<This, Prev, Base, PrefixOperations<OperationUnionOf<G>, Prefix>>;
  group(prefix: string, options: Omit<ScopeOptions, 'prefix'>, register: (group: Scope) => unknown): this {
    const child = new Scope(this.registry, this, {
      prefix: normalisePrefix(prefix, 'group()'),
      tags: options.tags,
      hooks: hookList(options.hooks, `group(${prefix})`),
      auth: options.auth,
      encapsulated: false,
    });
    register(child);
    return this;
  }

  /**
   * Hooks for this scope's routes. On the app itself, also the perimeter: their onRequest runs for
   * every request, unmatched ones included.
   */
  use(hooks: HookInput): this {
    const list = hookList(hooks, 'use()');
    if (this.isRoot) this.registry.perimeterHooks.push(...list);
    else this.#useHooks.push(...list);
    this.registry.invalidate();
    return this;
  }

  /** Adds a value to `ctx.state`. Inside a plugin it is visible only to that plugin's routes. */
  decorate(key: string, value: unknown, options?: DecorateOptions): this {
    if (typeof key !== 'string' || key === '' || key === '__proto__') {
      throw new TypeError(`decorate(): invalid key ${JSON.stringify(key)}`);
    }
    if (key in this.decorations && options?.override !== true) {
      throw new TypeError(`decorate(): "${key}" is already decorated; pass { override: true } to replace it`);
    }
    Object.defineProperty(this.decorations, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return this;
  }

  /**
   * Runs `listener` when the App starts shutting down, before in-flight requests drain. From a
   * plugin's scope too, so a plugin can stop taking work it owns. Errors are logged, never thrown.
   */
  onShutdown(listener: ShutdownListener): this {
    this.registry.shutdownListeners.push(listener);
    return this;
  }

  /**
   * Runs `cleanup` once the App has drained, in reverse order of registration (a plugin registered
   * after another is cleaned up before it): close the pools and clients a plugin opened.
   */
  onClose(cleanup: CloseListener): this {
    this.registry.closeListeners.push(cleanup);
    return this;
  }

  /** Installs a plugin in its own encapsulated scope. */
  register(plugin: Plugin, options: ScopeOptions = {}): this {
    const name = pluginName(plugin);
    const registry = this.registry;
    const spec = typeof plugin === 'function' ? { register: plugin } : plugin;
    if (typeof spec !== 'object' || spec === null)
      throw new TypeError('register() takes a plugin object or function');
    const label = name === undefined ? 'An anonymous plugin' : `Plugin "${name}"`;
    for (const dependency of spec.dependencies ?? []) {
      if (!registry.installedPlugins.has(dependency)) {
        throw new TypeError(`${label} depends on "${dependency}", which is not registered before it`);
      }
    }
    if (name !== undefined) {
      const previous = registry.installedPlugins.get(name);
      if (previous !== undefined && (previous.stateful || spec.stateful === true)) {
        throw new TypeError(`${label} is stateful and is already registered on this app`);
      }
      registry.installedPlugins.set(name, { stateful: spec.stateful === true });
    }
    const child = new Scope(registry, this, {
      prefix: normalisePrefix(options.prefix, `register(${name ?? 'plugin'})`),
      tags: options.tags,
      hooks: hookList(options.hooks, `register(${name ?? 'plugin'})`),
      auth: options.auth,
      encapsulated: true,
    });
    for (const [key, value] of Object.entries(spec.seed ?? {})) child.decorate(key, value);
    const announce = (): void => {
      for (const listener of registry.pluginListeners) {
        // A listener's failure is its own: logged, never a half-registered app or an unhandled
        // rejection (which ends a production process), as onShutdown and onClose listeners are.
        try {
          const out: unknown = listener({ name, prefix: child.prefix, extensions: spec.extensions });
          if (out instanceof Promise) {
            out.catch((error: unknown) =>
              registry.logger.error('An onPluginInstalled listener failed', { error }),
            );
          }
        } catch (error) {
          registry.logger.error('An onPluginInstalled listener threw', { error });
        }
      }
    };
    const result = spec.register?.(child);
    if (result instanceof Promise) registry.pending.push(result.then(announce));
    else announce();
    return this;
  }
}

function mergeTags(
  a: readonly string[] | undefined,
  b: readonly string[] | undefined,
): readonly string[] | undefined {
  if (a === undefined || a.length === 0) return b;
  if (b === undefined || b.length === 0) return a;
  return [...new Set([...a, ...b])];
}
