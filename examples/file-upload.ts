/**
 * File uploads with `charter/multipart`: POST /images takes a `multipart/form-data` body with a PNG or
 * JPEG (1 MiB at most, its first bytes checked against the declared type) and a caption; GET
 * /images/:id sends it back. GET / is a small HTML form that posts to it. Run it with
 * `bun examples/file-upload.ts` (PORT, default 3000; HOST, default 127.0.0.1).
 */
import { type } from 'arktype';
import { App, NotFoundError } from 'charter';
import { serve } from 'charter/bun';
import { FILE_SIGNATURES, fileField, multipartObject } from 'charter/multipart';

const MAX_IMAGE_BYTES = 1024 * 1024;

const ImageUpload = multipartObject({
  image: fileField({
    maxBytes: MAX_IMAGE_BYTES,
    accept: ['image/png', 'image/jpeg', '.png', '.jpg', '.jpeg'],
    // A file whose bytes are not what its type says (a script renamed .png) is refused.
    magicBytes: { 'image/png': [FILE_SIGNATURES.png], 'image/jpeg': [FILE_SIGNATURES.jpeg] },
  }),
  'caption?': type('string <= 200'),
});
const Stored = type({ id: 'string', size: 'number', type: 'string', 'caption?': 'string' });

const FORM = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Upload an image</title>
<h1>Upload an image</h1>
<form method="post" action="/images" enctype="multipart/form-data">
  <p><input type="file" name="image" accept="image/png,image/jpeg" required></p>
  <p><input type="text" name="caption" placeholder="Caption" maxlength="200"></p>
  <p><button>Upload</button></p>
</form>
`;

/** The upload app; images are kept in memory. */
export function createUploadApp() {
  const images = new Map<string, { bytes: Uint8Array; type: string; caption?: string }>();
  // The whole body: the image plus the caption and the multipart framing.
  return new App({ title: 'Uploads example', version: '1.0.0', bodyLimitBytes: MAX_IMAGE_BYTES + 16 * 1024 })
    .get(
      '/',
      { operationId: 'uploadForm', responses: { 200: { contentType: 'text/html; charset=utf-8' } } },
      () => ({
        status: 200,
        body: FORM,
        // The page's own policy: no script at all, and the form may only post back here.
        headers: { 'content-security-policy': "default-src 'none'; form-action 'self'; base-uri 'none'" },
      }),
    )
    .post(
      '/images',
      {
        operationId: 'uploadImage',
        request: { body: ImageUpload, contentTypes: ['multipart/form-data'] },
        responses: { 201: { body: Stored } },
      },
      async (ctx) => {
        const { image, caption } = ctx.body;
        const id = crypto.randomUUID(); // our name for the file, never the client's
        const bytes = new Uint8Array(await image.arrayBuffer());
        images.set(id, { bytes, type: image.type, ...(caption === undefined ? {} : { caption }) });
        return {
          status: 201,
          body: {
            id,
            size: bytes.byteLength,
            type: image.type,
            ...(caption === undefined ? {} : { caption }),
          },
          headers: { location: `/images/${id}` },
        };
      },
    )
    .get(
      '/images/:id',
      {
        operationId: 'getImage',
        request: { params: type({ id: 'string.uuid' }) },
        responses: { 200: { contentType: 'image/*', description: 'The image as uploaded' }, 404: {} },
      },
      (ctx) => {
        const image = images.get(ctx.params.id);
        if (image === undefined) throw new NotFoundError('No such image');
        return { status: 200, body: image.bytes, headers: { 'content-type': image.type } };
      },
    );
}

if (import.meta.main) {
  const server = await serve(createUploadApp(), {
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST ?? '127.0.0.1',
  });
  const url = server.url;
  console.log(`Uploads example listening on ${url}
Try:
  open ${url}/                 # a form that uploads an image
  curl -i -F image=@picture.png -F caption=Hello ${url}/images
  curl -i -F image=@notes.txt ${url}/images     # 422: not a PNG or JPEG`);
}
