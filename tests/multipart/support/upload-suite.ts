/**
 * The upload behaviour suite, run once per transport (in process with `app.request`, and over real
 * sockets with `@charter/bun` and `@charter/node`). `send` makes one request to the upload app.
 */
import { expect, test } from 'bun:test';
import { AVATAR_MAX_BYTES, avatarForm, BODY_LIMIT, LIMITS, pngBytes, sha256 } from './upload-app.ts';

export type Send = (path: string, init: RequestInit) => Promise<Response>;

const PROBLEM = 'https://charter.dev/errors/';

interface Problem {
  type: string;
  status: number;
  detail?: string;
  issues?: { in: string; path: string[]; message: string }[];
}

async function problem(response: Response, status: number, kind: string): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toStartWith('application/problem+json');
  const body = (await response.json()) as Problem;
  expect(body.type).toBe(`${PROBLEM}${kind}`);
  expect(body.status).toBe(status);
  return body;
}

function issues(body: Problem): { path: string; message: string }[] {
  return (body.issues ?? []).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

export function uploadSuite(send: () => Send): void {
  const post = (body: BodyInit, headers?: Record<string, string>) =>
    send()('/avatars', headers === undefined ? { method: 'POST', body } : { method: 'POST', body, headers });

  test('a good upload reaches the handler as a File with its bytes intact and text fields coerced', async () => {
    const bytes = pngBytes(200);
    const response = await post(
      avatarForm((form) => {
        form.set('avatar', new File([bytes], 'me.png', { type: 'image/png' }));
        form.append('caption', 'Me, in 2026');
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toStartWith('application/json');
    expect(await response.json()).toEqual({
      name: 'me.png',
      type: 'image/png',
      size: 200,
      sha256: await sha256(bytes),
      caption: 'Me, in 2026',
      public: true,
      rating: 4,
    });
  });

  test('an optional field may be absent; "false" and "0"-style text become booleans', async () => {
    const response = await post(avatarForm((form) => form.set('public', 'false')));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { public: boolean; caption?: string };
    expect(body.public).toBe(false);
    expect(body).not.toHaveProperty('caption');
  });

  test('a file over the fileField maxBytes is a 422 issue naming both sizes', async () => {
    const size = AVATAR_MAX_BYTES + 1;
    const body = await problem(
      await post(
        avatarForm((form) => form.set('avatar', new File([pngBytes(size)], 'me.png', { type: 'image/png' }))),
      ),
      422,
      'validation',
    );
    expect(issues(body)).toEqual([
      { path: 'avatar', message: `The file is ${size} bytes; at most ${AVATAR_MAX_BYTES} are accepted` },
    ]);
  });

  test("a file over the App's multipart.maxFileBytes is a 413", async () => {
    const big = new File([pngBytes(LIMITS.maxFileBytes + 1)], 'me.png', { type: 'image/png' });
    const body = await problem(
      await post(avatarForm((form) => form.set('avatar', big))),
      413,
      'payload-too-large',
    );
    expect(body.detail).toContain(String(LIMITS.maxFileBytes));
  });

  test("a body over the App's bodyLimitBytes is a 413 before any parsing", async () => {
    const form = avatarForm((f) => f.append('caption', 'x'.repeat(BODY_LIMIT)));
    await problem(await post(form), 413, 'payload-too-large');
  });

  test('more fields or files than the App limits is a 413', async () => {
    const fields = avatarForm((form) => {
      for (let i = 0; i < LIMITS.maxFields; i++) form.append(`f${i}`, 'x');
    });
    expect((await problem(await post(fields), 413, 'payload-too-large')).detail).toContain('fields');
    const files = avatarForm((form) => {
      for (let i = 0; i < LIMITS.maxFiles; i++) form.append(`g${i}`, new File(['x'], `g${i}.txt`));
    });
    expect((await problem(await post(files), 413, 'payload-too-large')).detail).toContain('files');
  });

  test('a file of a type not accepted is a 422', async () => {
    // Bun's form parser types a part from its file name's extension, not its Content-Type header; a .gif
    // name declared image/gif is image/gif either way.
    const gif = new File(['GIF89a....'], 'me.gif', { type: 'image/gif' });
    const body = await problem(await post(avatarForm((form) => form.set('avatar', gif))), 422, 'validation');
    expect(issues(body)).toEqual([
      { path: 'avatar', message: 'The file has a media type not accepted; accepted: image/png, image/jpeg' },
    ]);
  });

  test('a spoofed type (HTML declared as image/png) is refused by the magic bytes, without echoing content', async () => {
    const html = new File(['<script>alert(1)</script>'], 'me.png', { type: 'image/png' });
    const response = await post(avatarForm((form) => form.set('avatar', html)));
    const text = await response.clone().text();
    expect(text).not.toContain('<script>');
    const body = await problem(response, 422, 'validation');
    expect(issues(body)).toEqual([
      { path: 'avatar', message: "The file's content does not match its declared media type image/png" },
    ]);
  });

  test('a file name with a path, a control character or over maxLength is a 422', async () => {
    for (const [name, message] of [
      ['../../etc/me.png', 'The file name must not contain a path separator (/ or \\)'],
      ['..\\me.png', 'The file name must not contain a path separator (/ or \\)'],
      ['me\u0001.png', 'The file name must not contain control characters'],
      [`${'a'.repeat(41)}.png`, 'The file name is longer than 40 characters'],
    ] as const) {
      const file = new File([pngBytes(20)], name, { type: 'image/png' });
      const body = await problem(
        await post(avatarForm((form) => form.set('avatar', file))),
        422,
        'validation',
      );
      expect(issues(body)).toEqual([{ path: 'avatar', message }]);
    }
  });

  test('an unknown field, a missing required field and a repeated field are 422 issues at their paths', async () => {
    const body = await problem(
      await post(
        avatarForm((form) => {
          form.append('admin', 'true');
          form.delete('rating');
          form.append('public', 'true');
        }),
      ),
      422,
      'validation',
    );
    expect(issues(body)).toEqual([
      { path: 'admin', message: 'Unknown field' },
      { path: 'public', message: 'The field was sent 2 times; it takes one value' },
      { path: 'rating', message: 'The field is required' },
    ]);
  });

  test('text that does not convert, or a file where text is expected, is a 422', async () => {
    const body = await problem(
      await post(
        avatarForm((form) => {
          form.set('rating', '4.5');
          form.set('public', new File(['yes'], 'yes.txt'));
        }),
      ),
      422,
      'validation',
    );
    expect(issues(body).map((issue) => issue.path)).toEqual(['public', 'rating']);
  });

  test('a browser form with no file selected is "A file is required"', async () => {
    const empty = new File([], '', { type: 'application/octet-stream' });
    const body = await problem(
      await post(avatarForm((form) => form.set('avatar', empty))),
      422,
      'validation',
    );
    expect(issues(body)).toEqual([{ path: 'avatar', message: 'A file is required' }]);
  });

  test('a JSON or urlencoded body to the multipart route is a 415', async () => {
    const json = await problem(
      await post(JSON.stringify({ public: true }), { 'content-type': 'application/json' }),
      415,
      'unsupported-media-type',
    );
    expect(json.detail).toContain('multipart/form-data');
    await problem(
      await post(new URLSearchParams({ public: 'true', rating: '3' })),
      415,
      'unsupported-media-type',
    );
  });

  test('a malformed multipart body is a 400', async () => {
    await problem(
      await post('--x\r\nnot a part', { 'content-type': 'multipart/form-data; boundary=other' }),
      400,
      'bad-request',
    );
  });
}
