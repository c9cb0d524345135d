/** `bun examples/file-upload.ts`: an image in, the same bytes out; a disguised file refused. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type RunningExample, startExample } from './support.ts';

/** The 8-byte PNG signature and a few bytes after it: enough for the type check. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

describe('examples/file-upload.ts', () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample('file-upload.ts');
  });
  afterAll(() => example?.stop());

  test('prints its URL and the requests to try', () => {
    expect(example.output()).toContain(`Uploads example listening on ${example.url}`);
    expect(example.output()).toContain(`-F caption=Hello ${example.url}/images`);
  });

  test('GET / is the upload form, under a policy that allows no script', async () => {
    const response = await fetch(`${example.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; form-action 'self'; base-uri 'none'",
    );
    expect(await response.text()).toContain('enctype="multipart/form-data"');
  });

  test('POST /images stores a PNG (201, Location) and GET /images/:id sends the same bytes', async () => {
    const form = new FormData();
    form.append('image', new File([PNG], 'dot.png', { type: 'image/png' }));
    form.append('caption', 'A dot');
    const created = await fetch(`${example.url}/images`, { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const stored = (await created.json()) as { id: string; size: number; type: string; caption: string };
    expect(stored).toMatchObject({ size: PNG.byteLength, type: 'image/png', caption: 'A dot' });
    expect(created.headers.get('location')).toBe(`/images/${stored.id}`);

    const image = await fetch(`${example.url}/images/${stored.id}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
  });

  test('a text file named .png is a 422 problem; an unknown id is 404', async () => {
    const form = new FormData();
    form.append('image', new File(['not an image'], 'fake.png', { type: 'image/png' }));
    const refused = await fetch(`${example.url}/images`, { method: 'POST', body: form });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toStartWith('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toContain('image');

    const missing = await fetch(`${example.url}/images/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
  });
});
