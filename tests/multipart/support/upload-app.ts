/**
 * The upload app the multipart suites share: one route whose body is a multipartObject with a checked
 * image, text fields that are coerced, an optional caption, and App multipart limits small enough to hit.
 */
import { App } from '@charter/core';
import { FILE_SIGNATURES, fileField, multipartObject } from '@charter/multipart';
import { type } from 'arktype';

export const LIMITS = { maxFileBytes: 1024, maxFields: 6, maxFiles: 2 } as const;
export const BODY_LIMIT = 8 * 1024;
export const AVATAR_MAX_BYTES = 256;

export const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG signature followed by `size - 8` varied bytes (every byte value, so a re-encoding would show). */
export function pngBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_HEAD.slice(0, size));
  for (let i = PNG_HEAD.length; i < size; i++) bytes[i] = (i * 31) % 256;
  return bytes;
}

export async function sha256(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

export const AvatarUpload = multipartObject({
  avatar: fileField({
    maxBytes: AVATAR_MAX_BYTES,
    accept: ['image/png', 'image/jpeg', '.png', '.jpg', '.jpeg'],
    magicBytes: { 'image/png': [FILE_SIGNATURES.png], 'image/jpeg': [FILE_SIGNATURES.jpeg] },
    filename: { maxLength: 40 },
  }),
  'caption?': type('string <= 80'),
  public: type('boolean'),
  rating: type('1 <= number.integer <= 5'),
});

export const Stored = type({
  name: 'string',
  type: 'string',
  size: 'number',
  sha256: 'string',
  'caption?': 'string',
  public: 'boolean',
  rating: 'number',
});

export function uploadApp(): App {
  const app = new App({ logger: false, bodyLimitBytes: BODY_LIMIT, multipart: LIMITS });
  app.post(
    '/avatars',
    {
      operationId: 'uploadAvatar',
      request: { body: AvatarUpload, contentTypes: ['multipart/form-data'] },
      responses: { 201: { description: 'Stored', body: Stored } },
    },
    async (ctx) => {
      const { avatar, caption, public: isPublic, rating } = ctx.body;
      const stored: typeof Stored.infer = {
        name: avatar.name,
        type: avatar.type,
        size: avatar.size,
        sha256: await sha256(await avatar.arrayBuffer()),
        public: isPublic,
        rating,
      };
      if (caption !== undefined) stored.caption = caption;
      return { status: 201, body: stored };
    },
  );
  return app;
}

/** A form with a good avatar and good text fields; `change` edits it before it is sent. */
export function avatarForm(change: (form: FormData) => void = () => {}): FormData {
  const form = new FormData();
  form.append('avatar', new File([pngBytes(200)], 'me.png', { type: 'image/png' }));
  form.append('public', 'true');
  form.append('rating', '4');
  change(form);
  return form;
}
