/**
 * File uploads to a real App route, in process (`app.request`): the multipart body parsed by the core,
 * checked by multipartObject and fileField, answered with problem documents when refused.
 */
import { describe } from 'bun:test';
import { uploadApp } from './support/upload-app.ts';
import { uploadSuite } from './support/upload-suite.ts';

describe('multipart uploads through app.request', () => {
  const app = uploadApp();
  uploadSuite(() => (path, init) => app.request(path, init));
});
