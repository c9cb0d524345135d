export * from './safe-json.ts';
export { limitedRequest, readBodyLimited } from './body-limit.ts';
