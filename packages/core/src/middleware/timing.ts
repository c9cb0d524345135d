/**
 * `Server-Timing` (W3C Server Timing, §3 "The Server-Timing header field"): the request's total
 * duration plus metrics recorded by handlers and hooks.
 */
import { isProductionEnv } from '../security/environment.ts';
import { isHttpToken } from '../security/header-guards.ts';
import type { AnyContext, Hooks } from '../types/index.ts';
import { mutableResponse } from '../pipeline/response-headers.ts';

/** Options of `timing()`. */
export interface TimingOptions {
  /**
   * Send `Server-Timing` at all. Durations are a timing side channel (they can reveal, say, whether
   * an account exists or a cache was warm), so the default is true except when `NODE_ENV` is
   * `production`, read once when the hooks are created.
   */
  enabled?: boolean;
  /** Name of the total-duration metric, a token (RFC 9110 §5.6.2). Default `total`. */
  totalName?: string;
  /** Digits after the decimal point of durations, 0 to 3. Default 1. */
  precision?: number;
  /** Decides per request whether its metrics are sent (e.g. only to internal callers). Default: every request. */
  allow?: (ctx: AnyContext) => boolean;
  /** `Timing-Allow-Origin` value, so pages of other origins can read the metrics (W3C Resource Timing). Default none. */
  timingAllowOrigin?: string;
  /** Most metrics sent per response, the total included; later ones are dropped. Default 20. */
  maxMetrics?: number;
}

/** Timing options with defaults filled in. */
export interface ResolvedTimingOptions {
  readonly enabled: boolean;
  readonly totalName: string;
  readonly precision: number;
  readonly allow: ((ctx: AnyContext) => boolean) | undefined;
  readonly timingAllowOrigin: string | undefined;
  readonly maxMetrics: number;
}

/** Validates timing options (TypeError/RangeError naming the option) and fills defaults. */
export function resolveTimingOptions(options: TimingOptions = {}): ResolvedTimingOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('timing: options must be an object');
  const enabled = options.enabled ?? !isProductionEnv();
  if (typeof enabled !== 'boolean') throw new TypeError('timing: enabled must be a boolean');
  const totalName = options.totalName ?? 'total';
  if (typeof totalName !== 'string' || !isHttpToken(totalName)) {
    throw new TypeError(
      `timing: totalName must be a token (RFC 9110 §5.6.2), got ${JSON.stringify(totalName)}`,
    );
  }
  const precision = options.precision ?? 1;
  if (!Number.isInteger(precision) || precision < 0 || precision > 3) {
    throw new RangeError(`timing: precision must be an integer from 0 to 3, got ${String(precision)}`);
  }
  if (options.allow !== undefined && typeof options.allow !== 'function') {
    throw new TypeError('timing: allow must be a function');
  }
  const origin = options.timingAllowOrigin;
  if (
    origin !== undefined &&
    (typeof origin !== 'string' || origin.length === 0 || /[\r\n\0]/.test(origin))
  ) {
    throw new TypeError('timing: timingAllowOrigin must be a non-empty header value');
  }
  const maxMetrics = options.maxMetrics ?? 20;
  if (!Number.isSafeInteger(maxMetrics) || maxMetrics < 1) {
    throw new RangeError(`timing: maxMetrics must be a positive integer, got ${String(maxMetrics)}`);
  }
  return Object.freeze({
    enabled,
    totalName,
    precision,
    allow: options.allow,
    timingAllowOrigin: origin,
    maxMetrics,
  });
}

/** One Server-Timing metric. */
export interface ServerTimingMetric {
  readonly name: string;
  /** Milliseconds, when measured. */
  readonly duration: number | undefined;
  readonly description: string | undefined;
}

/** The metrics of one request; get it with `serverTiming(ctx)`. */
export interface ServerTiming {
  /** Records a metric; `name` must be a token, `durationMs` finite and not negative. */
  add(name: string, durationMs?: number, description?: string): this;
  /** Starts a measurement; the returned function stops it, records the metric and returns its duration. */
  start(name: string, description?: string): () => number;
  /** The metrics recorded so far, in order. */
  readonly metrics: readonly ServerTimingMetric[];
}

class Recorder implements ServerTiming {
  readonly metrics: ServerTimingMetric[] = [];

  add(name: string, durationMs?: number, description?: string): this {
    if (typeof name !== 'string' || !isHttpToken(name)) {
      throw new TypeError(
        `serverTiming: metric name must be a token (RFC 9110 §5.6.2), got ${JSON.stringify(name)}`,
      );
    }
    if (durationMs !== undefined && (!Number.isFinite(durationMs) || durationMs < 0)) {
      throw new RangeError(`serverTiming: duration of "${name}" must be a finite, non-negative number`);
    }
    if (description !== undefined && typeof description !== 'string') {
      throw new TypeError(`serverTiming: description of "${name}" must be a string`);
    }
    this.metrics.push({ name, duration: durationMs, description });
    return this;
  }

  start(name: string, description?: string): () => number {
    const started = performance.now();
    let stopped: number | undefined;
    return () => {
      if (stopped === undefined) {
        stopped = performance.now() - started;
        this.add(name, stopped, description);
      }
      return stopped;
    };
  }
}

const recorders = new WeakMap<object, Recorder>();
const starts = new WeakMap<object, number>();

/**
 * The Server-Timing metrics of a request, for handlers and hooks to add to. Recording is cheap and
 * harmless without `timing()`: the metrics are then simply not sent.
 *
 * @example const stop = serverTiming(ctx).start('db', 'user lookup'); await db.find(id); stop();
 */
export function serverTiming(ctx: AnyContext | object): ServerTiming {
  let recorder = recorders.get(ctx);
  if (recorder === undefined) {
    recorder = new Recorder();
    recorders.set(ctx, recorder);
  }
  return recorder;
}

/** A description as a quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, characters a header cannot carry replaced. */
function quoted(text: string): string {
  let out = '"';
  for (const ch of text.slice(0, 200)) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 9 || (c >= 0x20 && c <= 0x7e)) out += ch;
    else out += '?';
  }
  return `${out}"`;
}

function serialise(metric: ServerTimingMetric, precision: number): string {
  let out = metric.name;
  if (metric.duration !== undefined) out += `;dur=${metric.duration.toFixed(precision)}`;
  if (metric.description !== undefined) out += `;desc=${quoted(metric.description)}`;
  return out;
}

/**
 * Sends `Server-Timing` with the request's total duration (`total;dur=12.3`) and any metrics added
 * with `serverTiming(ctx)`. The total runs from route match (this hook's preBody) to its onSend:
 * the context that carries the start exists only once a route matched, so time spent in onRequest
 * hooks and routing is not counted, and unmatched 404/405 answers get no header. Off in production
 * unless `enabled: true`.
 *
 * @example app.use(timing({ allow: (ctx) => ctx.request.headers.has('x-debug') }));
 */
export function timing(options?: TimingOptions): Hooks {
  const resolved = resolveTimingOptions(options);
  if (!resolved.enabled) return {};
  return {
    preBody: (ctx) => {
      starts.set(ctx, performance.now());
    },
    onSend: (response, ctx) => {
      if (ctx === undefined) return undefined;
      const started = starts.get(ctx);
      if (started === undefined || (resolved.allow !== undefined && !resolved.allow(ctx))) return undefined;
      const total = performance.now() - started;
      const recorded = recorders.get(ctx)?.metrics ?? [];
      const metrics = recorded.slice(0, resolved.maxMetrics - 1);
      metrics.push({ name: resolved.totalName, duration: total, description: undefined });
      const value = metrics.map((m) => serialise(m, resolved.precision)).join(', ');
      const out = mutableResponse(response);
      out.headers.append('server-timing', value);
      if (resolved.timingAllowOrigin !== undefined) {
        out.headers.set('timing-allow-origin', resolved.timingAllowOrigin);
      }
      return out;
    },
  };
}
