/**
 * The digests the site's asset URLs, ETags and the script's integrity value are made of, computed
 * when the code is bundled or transpiled: `assets.ts` imports `assetDigests` as a Bun macro (`with {
 * type: 'macro' }`), so the compiled site carries the results as string literals and hashes nothing
 * at start (issue 18, item 6: about a millisecond of its start-up), and `bun run site` computes them
 * once per transpilation. The texts are plain module constants, so a changed asset changes its
 * digests at the next build; `assets.test.ts` checks them against the bodies served.
 */
import { FAVICON_SVG } from './favicon.ts';
import { SITE_JS } from './page-script.ts';
import { SITE_CSS } from './stylesheet.ts';

/** SHA-256 of each asset's UTF-8 body (hex), and the script's SHA-384 (base64) for its integrity. */
export interface AssetDigests {
  readonly stylesheet: string;
  readonly favicon: string;
  readonly script: string;
  readonly scriptSha384: string;
}

export function assetDigests(): AssetDigests {
  const sha256 = (text: string): string => new Bun.CryptoHasher('sha256').update(text).digest('hex');
  return {
    stylesheet: sha256(SITE_CSS),
    favicon: sha256(FAVICON_SVG),
    script: sha256(SITE_JS),
    scriptSha384: new Bun.CryptoHasher('sha384').update(SITE_JS).digest('base64'),
  };
}
