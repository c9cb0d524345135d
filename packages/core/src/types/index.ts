export * from './context.ts';
export * from './hooks.ts';
export * from './route.ts';
export type * from './schema-types.ts';
export type * from './web.ts';
