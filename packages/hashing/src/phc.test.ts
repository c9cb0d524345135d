import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { decodeB64, encodeB64, formatScryptPhc, parseScryptPhc } from './phc.ts';

const SALT = 'c2FsdHNhbHRzYWx0c2FsdA'; // "saltsaltsaltsalt", 16 bytes
const HASH = 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY'; // 32 bytes
const good = `$scrypt$ln=17,r=8,p=1$${SALT}$${HASH}`;

describe('PHC B64', () => {
  test('encodes as standard base64 without padding', () => {
    const bytes = new TextEncoder().encode('saltsaltsaltsalt');
    expect(encodeB64(bytes)).toBe(SALT);
    expect(encodeB64(new Uint8Array([0xfb, 0xff]))).toBe('+/8');
  });

  test('round-trips any bytes and agrees with the platform base64 minus padding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = encodeB64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64').replace(/=+$/, ''));
        expect(decodeB64(text)).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });

  test('refuses padding, URL-safe digits, impossible lengths and non-canonical last digits', () => {
    expect(decodeB64('YQ==')).toBeUndefined();
    expect(decodeB64('-_8')).toBeUndefined();
    expect(decodeB64('YWJjZ')).toBeUndefined(); // 4k+1 characters
    expect(decodeB64('YR')).toBeUndefined(); // "a" is YQ; R sets unused bits
    expect(decodeB64('YQ')).toEqual(new Uint8Array([0x61]));
    expect(decodeB64('é')).toBeUndefined();
  });
});

describe('parseScryptPhc', () => {
  test('reads the parameters, salt and hash of a well-formed string, and formats it back', () => {
    const phc = parseScryptPhc(good);
    expect(phc?.params).toEqual({ ln: 17, r: 8, p: 1 });
    expect(phc?.salt.length).toBe(16);
    expect(phc?.hash.length).toBe(32);
    expect(formatScryptPhc(phc as NonNullable<typeof phc>)).toBe(good);
  });

  const malformed: Record<string, unknown> = {
    'not a string': 42,
    empty: '',
    'no leading $': good.slice(1),
    'another function': good.replace('$scrypt$', '$argon2id$'),
    'upper-case id': good.replace('$scrypt$', '$SCRYPT$'),
    'a version field': `$scrypt$v=1$ln=17,r=8,p=1$${SALT}$${HASH}`,
    'no parameters': `$scrypt$$${SALT}$${HASH}`,
    'a missing parameter': `$scrypt$ln=17,r=8$${SALT}$${HASH}`,
    'an extra parameter': `$scrypt$ln=17,r=8,p=1,x=2$${SALT}$${HASH}`,
    'reordered parameters': `$scrypt$r=8,ln=17,p=1$${SALT}$${HASH}`,
    'N instead of ln': `$scrypt$N=131072,r=8,p=1$${SALT}$${HASH}`,
    'a repeated parameter': `$scrypt$ln=17,ln=17,p=1$${SALT}$${HASH}`,
    'a leading zero': `$scrypt$ln=017,r=8,p=1$${SALT}$${HASH}`,
    'a sign': `$scrypt$ln=+17,r=8,p=1$${SALT}$${HASH}`,
    'a negative value': `$scrypt$ln=17,r=-8,p=1$${SALT}$${HASH}`,
    'a fraction': `$scrypt$ln=17,r=8,p=1.5$${SALT}$${HASH}`,
    'an empty value': `$scrypt$ln=,r=8,p=1$${SALT}$${HASH}`,
    'an 11-digit value': `$scrypt$ln=17,r=8,p=12345678901$${SALT}$${HASH}`,
    'spaces around a value': `$scrypt$ln= 17,r=8,p=1$${SALT}$${HASH}`,
    'no salt': `$scrypt$ln=17,r=8,p=1$$${HASH}`,
    'no hash': `$scrypt$ln=17,r=8,p=1$${SALT}$`,
    'the hash missing altogether': `$scrypt$ln=17,r=8,p=1$${SALT}`,
    'a trailing field': `${good}$extra`,
    'a padded salt': `$scrypt$ln=17,r=8,p=1$${SALT}==$${HASH}`,
    'a URL-safe digit in the hash': `$scrypt$ln=17,r=8,p=1$${SALT}$${HASH.slice(0, -1)}_`,
    'a non-canonical salt': `$scrypt$ln=17,r=8,p=1$${SALT.slice(0, -1)}B$${HASH}`,
    'a string longer than any accepted hash': `${good}${'A'.repeat(300)}`,
  };
  for (const [name, value] of Object.entries(malformed)) {
    test(`refuses ${name}`, () => {
      expect(parseScryptPhc(value)).toBeUndefined();
    });
  }
});
