/**
 * For server fixtures run as child processes: a Logger that prints one JSON line per call on
 * stdout, `{ log, msg, fields }`, so the parent test can read what was logged. Errors become
 * `{ name, message }`: JSON cannot carry them, and the tests only need to know what was logged.
 */
export const printLine = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Log fields with each Error as `{ name, message }` (also used for in-process servers, to log alike). */
export const plainFields = (fields) =>
  fields === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [
          k,
          v instanceof Error ? { name: v.name, message: v.message } : v,
        ]),
      );

export const childLogger = Object.fromEntries(
  ['debug', 'info', 'warn', 'error'].map((level) => [
    level,
    (msg, fields) => printLine({ log: level, msg, fields: plainFields(fields) }),
  ]),
);
