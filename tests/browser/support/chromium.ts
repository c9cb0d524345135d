/**
 * Launching the system Chromium for the browser tests with playwright-core (never a downloaded
 * browser: the test machines cannot reach Playwright's download host). The path is `CHROMIUM_PATH`
 * or `/usr/bin/chromium` (Debian's `chromium` package); when it cannot start, the tests fail with
 * a message saying how to fix it, they never skip.
 */
import { type Browser, chromium } from 'playwright-core';

/** Where the browser is looked for. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : '/usr/bin/chromium';
}

/**
 * Flags for a quiet headless run as root without outside network: no sandbox (root), no GPU, no
 * QUIC, and none of the background traffic (component updates, sync, field trials) that would
 * otherwise keep trying to reach outside hosts. No `--user-data-dir`: Playwright's `launch` refuses
 * one, and gives each browser a new empty profile of its own instead (mkdtemp,
 * `playwright_chromiumdev_profile-*` in the temporary directory), deleted on close. So every run is
 * a first launch with cold caches, as on a machine set up a minute ago; harness.test.ts checks it.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts headless Chromium, or throws an Error that says to install Debian's chromium or set CHROMIUM_PATH. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: 20_000,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `Chromium could not start from ${executablePath} (${reason}). The browser tests need it: install ` +
        "Debian's chromium package (apt-get install -y --no-install-recommends chromium) or set " +
        'CHROMIUM_PATH to a Chromium binary.',
    );
  }
}
