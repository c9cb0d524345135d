export * from './coerce.ts';
export * from './json-schema.ts';
export type * from './standard-schema.ts';
export * from './typebox.ts';
export * from './validate.ts';
