/**
 * @module charter/session — cookie sessions with signed ids and pluggable stores. Re-exports `@charter/session`.
 */
export * from '@charter/session';
