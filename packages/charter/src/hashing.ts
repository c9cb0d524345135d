/**
 * @module charter/hashing — scrypt password hashing in PHC strings. Re-exports `@charter/hashing`.
 */
export * from '@charter/hashing';
