export * from './discriminator.ts';
export * from './errors.ts';
export * from './generate.ts';
export { type PathParam, toOpenAPIPath } from './paths.ts';
export * from './problem.ts';
export * from './types.ts';
export * from './mount.ts';
export * from './yaml.ts';
