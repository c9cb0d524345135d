/** Log levels, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, unknown>;

/** What the app logs through. Any structured logger (pino, bunyan...) fits with a thin adapter. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface JsonLoggerOptions {
  /** Default `info`. */
  level?: LogLevel;
  /** Where lines go; default stdout (stderr for `error`) or the console where there is no process. */
  write?: (line: string, level: Exclude<LogLevel, 'silent'>) => void;
}

const rank = (level: LogLevel): number => LOG_LEVELS.indexOf(level);

function defaultWrite(line: string, level: LogLevel): void {
  const stream = (
    globalThis as { process?: { stdout?: { write(s: string): void }; stderr?: { write(s: string): void } } }
  ).process;
  const target = level === 'error' ? stream?.stderr : stream?.stdout;
  if (target !== undefined) target.write(`${line}\n`);
  else console.log(line);
}

function serialiseError(error: Error): LogFields {
  return { name: error.name, message: error.message, stack: error.stack };
}

/** A logger that writes one JSON object per line: `{"time":...,"level":...,"msg":...,...fields}`. */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  if (!LOG_LEVELS.includes(level))
    throw new TypeError(`logger.level must be one of ${LOG_LEVELS.join(', ')}`);
  const threshold = rank(level);
  const write = options.write ?? defaultWrite;
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields): void => {
    if (rank(at) < threshold) return;
    const record: LogFields = { time: new Date().toISOString(), level: at, msg: message };
    if (fields !== undefined) {
      for (const key of Object.keys(fields)) {
        const value = fields[key];
        record[key] = value instanceof Error ? serialiseError(value) : value;
      }
    }
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({
        time: record.time,
        level: at,
        msg: message,
        note: 'fields were not serialisable',
      });
    }
    write(line, at);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}

const noop = (): void => {};

/** A logger that drops everything (`logger: false`). */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/** Resolves the app's `logger` option. */
export function resolveLogger(option: Logger | { level?: LogLevel } | false | undefined): Logger {
  if (option === false) return silentLogger;
  if (option === undefined) return createJsonLogger();
  if (typeof (option as Logger).error === 'function' && typeof (option as Logger).info === 'function') {
    return option as Logger;
  }
  return createJsonLogger({ level: (option as { level?: LogLevel }).level });
}
