// A session store in SQLite: Bun's `bun:sqlite` Database or Node's `node:sqlite` DatabaseSync.
import type { SessionRecord } from './record.ts';
import { parseStoredJson, resolveClock, resolveSeconds, type SessionStore } from './store.ts';

/** A value bound to a `?` placeholder. */
export type SqliteValue = string | number | null;

/** A prepared statement, as `bun:sqlite` and `node:sqlite` both shape it. */
export interface SqliteStatement {
  run(...params: SqliteValue[]): unknown;
  /** The first row, or undefined (`node:sqlite`) or null (`bun:sqlite`) when there is none. */
  get(...params: SqliteValue[]): unknown;
}

/** The part of a SQLite database handle the store uses: `prepare(sql)`. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

/** Options of `sqliteSessionStore`: exactly one of `database` and `filename`. */
export interface SqliteSessionStoreOptions {
  /** An open database (`new Database(...)` from `bun:sqlite`, `new DatabaseSync(...)` from `node:sqlite`). */
  database?: SqliteDatabase;
  /**
   * A file to open with `bun:sqlite` (Bun only), created when missing, in WAL mode; `:memory:` for
   * a private in-memory database. On other runtimes pass `database`.
   */
  filename?: string;
  /** Table name (letters, digits, `_`; not starting with a digit); default `charter_sessions`. */
  table?: string;
  /** Clock in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Least time between two deletions of expired rows, run on writes; default 300. */
  sweepIntervalSeconds?: number;
}

/** The SQLite store. */
export interface SqliteSessionStore extends SessionStore {
  get(id: string): Promise<SessionRecord | undefined>;
  set(id: string, record: SessionRecord): Promise<void>;
  delete(id: string): Promise<void>;
  touch(id: string, expiresAt: number): Promise<void>;
  /** Deletes every expired row now; resolves how many. */
  sweep(): Promise<number>;
  /** Closes the database when the store opened it (`filename`); a given `database` stays open. */
  close(): void;
}

const DEFAULT_TABLE = 'charter_sessions';
const DEFAULT_SWEEP_INTERVAL_SECONDS = 300;
const WHERE = 'sqliteSessionStore';

/** An SQL identifier that needs no quoting. Identifiers cannot be bound as parameters, so it is checked. */
function isPlainIdentifier(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
    if (!letter && !(i > 0 && c >= 0x30 && c <= 0x39)) return false;
  }
  return true;
}

interface Statements {
  readonly get: SqliteStatement;
  readonly upsert: SqliteStatement;
  readonly delete: SqliteStatement;
  readonly touch: SqliteStatement;
  readonly sweep: SqliteStatement;
}

interface Opened {
  readonly database: SqliteDatabase;
  readonly statements: Statements;
  readonly close: (() => void) | undefined;
}

function prepareAll(database: SqliteDatabase, table: string): Statements {
  // `table` passed isPlainIdentifier; every value below is a bound parameter.
  database
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
    )
    .run();
  database.prepare(`CREATE INDEX IF NOT EXISTS ${table}_expires_at ON ${table} (expires_at)`).run();
  return {
    get: database.prepare(`SELECT record, expires_at FROM ${table} WHERE id = ?`),
    upsert: database.prepare(
      `INSERT INTO ${table} (id, record, expires_at) VALUES (?, ?, ?) ` +
        'ON CONFLICT (id) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at',
    ),
    delete: database.prepare(`DELETE FROM ${table} WHERE id = ?`),
    touch: database.prepare(`UPDATE ${table} SET expires_at = ? WHERE id = ?`),
    sweep: database.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`),
  };
}

interface BunSqliteModule {
  Database: new (filename: string, options?: { create?: boolean }) => SqliteDatabase & { close(): void };
}

const BUN_SQLITE = 'bun:sqlite';

/** Opens `filename` with `bun:sqlite`, imported only now so other runtimes never load it. */
async function openWithBun(filename: string): Promise<SqliteDatabase & { close(): void }> {
  if (typeof (globalThis as { Bun?: unknown }).Bun === 'undefined') {
    throw new Error(
      `${WHERE}({ filename }) needs Bun (bun:sqlite); on Node pass { database: new DatabaseSync(file) } from node:sqlite`,
    );
  }
  // A computed specifier: bundlers for other runtimes (workers, Node) must not try to resolve a
  // Bun builtin that this branch never loads there.
  const specifier = BUN_SQLITE;
  const { Database } = (await import(specifier)) as BunSqliteModule;
  const database = new Database(filename, { create: true });
  // WAL lets readers and one writer work at once, which suits many short session requests.
  if (filename !== ':memory:') database.prepare('PRAGMA journal_mode = WAL').get();
  return database;
}

function rowOf(row: unknown): { record: string; expiresAt: number } | undefined {
  if (row === undefined || row === null) return undefined;
  const { record, expires_at: expiresAt } = row as { record?: unknown; expires_at?: unknown };
  if (typeof record !== 'string' || typeof expiresAt !== 'number') {
    throw new Error(`${WHERE}: a row of the session table has an unexpected shape`);
  }
  return { record, expiresAt };
}

/**
 * A session store in one SQLite table (`id`, `record` as JSON, `expires_at` in milliseconds,
 * indexed). The table is created when missing; expired rows are deleted at most once per
 * `sweepIntervalSeconds`, on writes, and never returned. All SQL is parameterised.
 */
export function sqliteSessionStore(options: SqliteSessionStoreOptions): SqliteSessionStore {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${WHERE} options must be an object`);
  const { database, filename } = options;
  if ((database === undefined) === (filename === undefined)) {
    throw new TypeError(`${WHERE} needs exactly one of the options "database" and "filename"`);
  }
  if (database !== undefined && (typeof database !== 'object' || typeof database?.prepare !== 'function')) {
    throw new TypeError(`${WHERE} option "database" must be a SQLite database with prepare(sql)`);
  }
  if (filename !== undefined && (typeof filename !== 'string' || filename === '')) {
    throw new TypeError(`${WHERE} option "filename" must be a non-empty path or ":memory:"`);
  }
  const table = options.table ?? DEFAULT_TABLE;
  if (typeof table !== 'string' || !isPlainIdentifier(table)) {
    throw new TypeError(`${WHERE} option "table" must be letters, digits and "_", not starting with a digit`);
  }
  const now = resolveClock(options.now, `${WHERE} option "now"`);
  const sweepIntervalMs =
    resolveSeconds(
      options.sweepIntervalSeconds,
      DEFAULT_SWEEP_INTERVAL_SECONDS,
      `${WHERE} option "sweepIntervalSeconds"`,
      true,
    ) * 1000;

  let opening: Promise<Opened> | undefined;
  let opened: Opened | undefined;
  let closed = false;
  const open = (): Promise<Opened> => {
    if (closed) return Promise.reject(new Error(`${WHERE}: the store is closed`));
    // A failed open is not cached: the next request tries again (a locked or missing file may recover).
    opening ??= (async () => {
      const db = database ?? (await openWithBun(filename as string));
      const owned = database === undefined ? (db as SqliteDatabase & { close(): void }) : undefined;
      if (closed) {
        // close() was called while the file was opening: do not leak the handle.
        owned?.close();
        throw new Error(`${WHERE}: the store is closed`);
      }
      opened = { database: db, statements: prepareAll(db, table), close: owned && (() => owned.close()) };
      return opened;
    })().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  let lastSweep = Number.NEGATIVE_INFINITY;

  const sweepWith = (statements: Statements): number => {
    const at = now();
    lastSweep = at;
    const result = statements.sweep.run(at) as { changes?: number | bigint } | undefined;
    return Number(result?.changes ?? 0);
  };

  return {
    async get(id) {
      const { statements } = await open();
      const row = rowOf(statements.get.get(id));
      if (row === undefined) return undefined;
      if (row.expiresAt <= now()) {
        statements.delete.run(id);
        return undefined;
      }
      const record = parseStoredJson(row.record, WHERE) as SessionRecord;
      // touch() moves only the column; the record reports the current expiry.
      return { ...record, expiresAt: row.expiresAt };
    },
    async set(id, record) {
      const { statements } = await open();
      if (now() - lastSweep >= sweepIntervalMs) sweepWith(statements);
      statements.upsert.run(id, JSON.stringify(record), record.expiresAt);
    },
    async delete(id) {
      const { statements } = await open();
      statements.delete.run(id);
    },
    async touch(id, expiresAt) {
      const { statements } = await open();
      statements.touch.run(expiresAt, id);
    },
    async sweep() {
      return sweepWith((await open()).statements);
    },
    close() {
      closed = true;
      opened?.close?.();
    },
  };
}
