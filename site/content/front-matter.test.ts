import { describe, expect, test } from 'bun:test';
import { ContentError } from './content-error.ts';
import { parseFrontMatter } from './front-matter.ts';

const GOOD =
  '---\ntitle: JSON Web Tokens\ndescription: Sign and verify JWTs.\norder: 9\n---\n\n# JWT\n\nBody.\n';

/** The ContentError thrown by parsing `text` as `docs/x.md`. */
function failure(text: string): ContentError {
  try {
    parseFrontMatter(text, 'docs/x.md');
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return error as ContentError;
  }
  throw new Error('expected parseFrontMatter to throw');
}

describe('parseFrontMatter', () => {
  test('reads title, description and order, and returns the body without the block', () => {
    const parsed = parseFrontMatter(GOOD, 'docs/x.md');
    expect(parsed.frontMatter).toEqual({
      title: 'JSON Web Tokens',
      description: 'Sign and verify JWTs.',
      order: 9,
    });
    expect(parsed.body).toBe('# JWT\n\nBody.\n');
    expect(parsed.bodyLine).toBe(7);
  });

  test('accepts quoted strings with \\" and \\\\ escapes, keys in any order, blank lines, CRLF and a BOM', () => {
    const text =
      '\ufeff---\r\norder: -2\r\n\r\ndescription: "Colons: fine, \\"quotes\\" and \\\\ too"\r\ntitle: \'single\' stays\r\n---\r\nBody';
    const parsed = parseFrontMatter(text, 'a.md');
    expect(parsed.frontMatter).toEqual({
      title: "'single' stays",
      description: 'Colons: fine, "quotes" and \\ too',
      order: -2,
    });
    expect(parsed.body).toBe('Body');
  });

  test('keeps colons inside bare values', () => {
    const parsed = parseFrontMatter('---\ntitle: Time: now\ndescription: a: b\norder: 0\n---\n', 'a.md');
    expect(parsed.frontMatter.title).toBe('Time: now');
    expect(parsed.frontMatter.description).toBe('a: b');
    expect(parsed.body).toBe('');
  });

  test('rejects a file without a block at the very start, naming file and line 1', () => {
    expect(failure('# Title\n').message).toBe(
      "docs/x.md:1: missing front matter: the file must start with a '---' line",
    );
    expect(failure('\n---\ntitle: a\n---\n').line).toBe(1);
  });

  test('rejects a block that is never closed', () => {
    expect(failure('---\ntitle: a\n').message).toContain('never closed');
  });

  test('rejects an unknown key, naming it and its line', () => {
    const error = failure('---\ntitle: a\ndescription: b\norder: 1\nauthor: me\n---\n');
    expect(error.line).toBe(5);
    expect(error.message).toBe(
      'docs/x.md:5: unknown front matter key "author" (allowed: title, description, order)',
    );
  });

  test('rejects a missing key at the closing line', () => {
    const error = failure('---\ntitle: a\norder: 1\n---\n');
    expect(error.message).toBe("docs/x.md:4: missing front matter key 'description'");
  });

  test('rejects a duplicate key, naming both lines', () => {
    const error = failure('---\ntitle: a\ntitle: b\ndescription: c\norder: 1\n---\n');
    expect(error.message).toBe("docs/x.md:3: duplicate key 'title' (first set on line 2)");
  });

  test.each([['1.5'], ['one'], ['1e3'], ['"3"'], ['-'], ['99999999999999999999'], ['']])(
    'rejects order %p',
    (order) => {
      const error = failure(`---\ntitle: a\ndescription: b\norder: ${order}\n---\n`);
      expect(error.line).toBe(4);
      expect(error.message).toContain("'order' must be an integer");
    },
  );

  test('rejects empty title and description', () => {
    expect(failure('---\ntitle:\ndescription: b\norder: 1\n---\n').message).toBe(
      "docs/x.md:2: 'title' must not be empty",
    );
    expect(failure('---\ntitle: a\ndescription: ""\norder: 1\n---\n').message).toBe(
      "docs/x.md:3: 'description' must not be empty",
    );
  });

  test('rejects a line that is not key: value', () => {
    expect(failure('---\ntitle a\n---\n').message).toBe(
      'docs/x.md:2: expected \'key: value\', got "title a"',
    );
  });

  test('rejects malformed quoted strings', () => {
    const base = (value: string) => `---\ntitle: ${value}\ndescription: b\norder: 1\n---\n`;
    expect(failure(base('"open')).message).toContain('unterminated quoted string');
    expect(failure(base('"a" b')).message).toContain('unexpected text after the closing quote');
    expect(failure(base('"a\\n"')).message).toContain("unsupported escape '\\n'");
  });
});
