/** A small content site for the page tests, built by `buildContent` from hand-written files. */
import { buildContent } from '../content/build.ts';
import type { ContentSite } from '../content/types.ts';

export const TEST_ORIGIN = 'https://docs.example';

function file(path: string, title: string, description: string, order: number, body: string) {
  return {
    file: path,
    text: `---\ntitle: ${title}\ndescription: ${description}\norder: ${order}\n---\n\n${body}`,
  };
}

/** Home, a docs section (index, jwt, jwk, versioning) and an errors section (index, not-found). */
export function testSite(): ContentSite {
  return buildContent([
    file('index.md', 'Charter', 'The home page.', 0, '# Charter\n\nA framework.\n'),
    file('docs/index.md', 'Guides', 'Every guide.', 0, '# Guides\n\nRead on.\n'),
    file('docs/jwt.md', 'JSON Web Tokens', 'Sign and verify JWTs.', 1, '# JSON Web Tokens\n\nTokens.\n'),
    file('docs/jwk.md', 'JSON Web Keys', 'Key sets.', 2, '# JSON Web Keys\n\nKeys.\n'),
    file('docs/versioning.md', 'Versioning', 'The deprecation policy.', 3, '# Versioning\n\nPolicy.\n'),
    file('errors/index.md', 'Errors', 'Every error type.', 0, '# Errors\n\nThe list.\n'),
    file('errors/not-found.md', 'Not found', 'No route or resource.', 1, '# Not found\n\nA 404.\n'),
  ]);
}
