/**
 * The params of a 2026-07-28 `subscriptions/listen` request (schema `SubscriptionsListenRequestParams`:
 * `_meta` and a required `notifications` filter) and the subset of that filter this server honours.
 *
 * `SubscriptionFilter` is an open object in the revision's schema, so a field it does not name is
 * not an error (records.ts follows the same rule): it is a notification type this server does not
 * know, and like any type the server cannot emit it is left out of the acknowledgement ("Only
 * includes notification types the server actually supports", `SubscriptionsAcknowledgedNotification`).
 * A named field of the wrong type, a URI that is not one, or more URIs than the limit is -32602.
 */
import type { ResolvedListenOptions } from './listen-options.ts';
import { invalidParams, isRecord } from './server.ts';

/** The filter fields of `SubscriptionFilter` that are booleans. */
const LIST_CHANGED_FIELDS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

/** What a listen request asked for, checked. */
export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  /** Deduplicated, in the order first given. */
  readonly resourceSubscriptions?: readonly string[];
}

/** An RFC 3986 §3.1 scheme and its colon: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether `uri` is an absolute URI: a scheme, and no whitespace or control character (RFC 3986 §2 never allows them unencoded). */
function isAbsoluteUri(uri: string): boolean {
  if (!SCHEME.test(uri)) return false;
  for (let i = 0; i < uri.length; i++) {
    const code = uri.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return true;
}

function checkUri(uri: unknown, index: number, maxLength: number): string {
  const where = `params.notifications.resourceSubscriptions[${index}]`;
  if (typeof uri !== 'string' || uri.length === 0)
    throw invalidParams(`${where} must be a URI (a non-empty string)`);
  if (uri.length > maxLength) throw invalidParams(`${where} is longer than ${maxLength} characters`);
  if (!isAbsoluteUri(uri)) {
    throw invalidParams(
      `${where} is not an absolute URI (RFC 3986: a scheme such as "docs:" and no whitespace or control characters)`,
    );
  }
  return uri;
}

/** Reads `params.notifications`; throws -32602 naming the field or the limit it breaks. */
export function readListenFilter(
  params: Record<string, unknown>,
  limits: ResolvedListenOptions,
  maxUriLength: number,
): ListenFilter {
  const notifications = params.notifications;
  if (!isRecord(notifications)) {
    throw invalidParams(
      'subscriptions/listen needs params.notifications, an object naming the notifications to receive (e.g. { "resourceSubscriptions": ["docs://readme"] })',
    );
  }
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  for (const field of LIST_CHANGED_FIELDS) {
    const value = notifications[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw invalidParams(`params.notifications.${field} must be a boolean`);
    filter[field] = value;
  }
  const uris = notifications.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris)) {
      throw invalidParams('params.notifications.resourceSubscriptions must be an array of resource URIs');
    }
    if (uris.length > limits.maxResourceSubscriptions) {
      throw invalidParams(
        `params.notifications.resourceSubscriptions names ${uris.length} URIs; the limit (listen.maxResourceSubscriptions) is ${limits.maxResourceSubscriptions}`,
        { limit: 'maxResourceSubscriptions', max: limits.maxResourceSubscriptions },
      );
    }
    filter.resourceSubscriptions = [...new Set(uris.map((uri, index) => checkUri(uri, index, maxUriLength)))];
  }
  return filter;
}

/** What this server can emit on a listen stream, from what it declares in `server/discover`. */
export interface ListenAbilities {
  /** `resources.subscribe`: the app announces changes with `notifyResourceUpdated`. */
  readonly resourceSubscriptions: boolean;
}

/**
 * The subset of `filter` the server honours (`SubscriptionsAcknowledgedNotificationParams.notifications`).
 * The list-changed types are never in it: the catalog is fixed when the handler is created, so its
 * lists never change while it runs, and `server/discover` declares no `listChanged`.
 */
export function honouredFilter(filter: ListenFilter, abilities: ListenAbilities): ListenFilter {
  if (filter.resourceSubscriptions !== undefined && abilities.resourceSubscriptions) {
    return { resourceSubscriptions: filter.resourceSubscriptions };
  }
  return {};
}
