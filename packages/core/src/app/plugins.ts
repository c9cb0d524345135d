import type { AuthSpec, HookInput } from '../types/index.ts';
import type { Scope } from './scope.ts';

/** Options for `app.register(plugin, options)` and `app.group(prefix, options, ...)`. */
export interface ScopeOptions {
  prefix?: string;
  tags?: readonly string[];
  hooks?: HookInput;
  auth?: AuthSpec;
}

/** A plugin as an object; `register` receives an encapsulated scope. */
export interface PluginObject {
  /** Used for dependencies, duplicate detection and logs. */
  name?: string;
  /** Decorations visible only to this plugin's routes, set before `register` runs. */
  seed?: Record<string, unknown>;
  /** A stateful plugin holds per-app state, so registering it twice on one app throws. */
  stateful?: boolean;
  /** Names of plugins that must be registered before this one. */
  dependencies?: readonly string[];
  /** Free-form capabilities the plugin announces (reported to onPluginInstalled listeners). */
  extensions?: Record<string, unknown>;
  register?: (app: Scope) => void | Promise<void>;
}

/** A plugin: an object, or a function that receives an encapsulated scope. */
export type Plugin = PluginObject | ((app: Scope) => void | Promise<void>);

/** What onPluginInstalled listeners receive. */
export interface PluginInstalledInfo {
  name: string | undefined;
  prefix: string;
  extensions: Record<string, unknown> | undefined;
}

export type PluginInstalledListener = (info: PluginInstalledInfo) => void;

export function pluginName(plugin: Plugin): string | undefined {
  if (typeof plugin === 'function') return plugin.name === '' ? undefined : plugin.name;
  return plugin.name;
}
