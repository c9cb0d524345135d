export * from './catalog.ts';
export {
  type CredentialRejection,
  isCredentialRejection,
  markCredentialRejection,
} from './credential-rejection.ts';
export * from './error-types.ts';
export * from './http-error.ts';
export * from './leak-guard.ts';
export {
  PROBLEM_CONTENT_TYPE,
  problemResponse,
  renderError,
  toHttpError,
  type RenderedError,
} from './render.ts';
