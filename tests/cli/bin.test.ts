/**
 * The `charter` bin as the package ships it: declared in package.json, `#!/usr/bin/env node` above the
 * `// @bun` pragma, executable, run straight from its path (the shebang finds Node 24 on PATH), and
 * silent when imported; `charter/banner` is also reachable from the barrel.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { node24 } from '../adapters/fixtures/node24.ts';
import { CHARTER_DIR, CLI, CLI_TIMEOUT_MS, cleanEnv, fixture, prepareCli } from './support.ts';

beforeAll(() => prepareCli());

describe('the charter bin', () => {
  test('package.json declares it, and the file starts with the shebang then the // @bun pragma', () => {
    const manifest = JSON.parse(readFileSync(join(CHARTER_DIR, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ charter: './dist/cli.js' });
    const code = readFileSync(CLI, 'utf8');
    expect(code.startsWith('#!/usr/bin/env node\n// @bun\n')).toBe(true);
    expect(statSync(CLI).mode & 0o111).toBe(0o111);
  });

  test('its source map leaves the shebang line unmapped', () => {
    const map = JSON.parse(readFileSync(`${CLI}.map`, 'utf8')) as { mappings: string };
    expect(map.mappings.startsWith(';')).toBe(true);
  });

  test(
    'runs straight from its path, with the node the shebang finds on PATH',
    () => {
      const node = node24().path;
      const result = spawnSync(CLI, ['routes'], {
        cwd: fixture('named'),
        env: cleanEnv({ PATH: `${dirname(node)}:${process.env.PATH ?? ''}` }),
        encoding: 'utf8',
        timeout: CLI_TIMEOUT_MS,
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^GET +\/ping +ping /m);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'importing charter/cli runs nothing',
    () => {
      const result = spawnSync(
        process.execPath,
        ['-e', "await import('charter/cli'); console.log('imported')"],
        {
          cwd: fixture('basic'),
          env: cleanEnv(),
          encoding: 'utf8',
          timeout: CLI_TIMEOUT_MS,
        },
      );
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('imported\n');
      expect(result.stderr).toBe('');
    },
    CLI_TIMEOUT_MS,
  );

  test('the barrel re-exports charter/banner', async () => {
    const barrel = await import('charter');
    const banner = await import('charter/banner');
    expect(barrel.formatStartupBanner).toBe(banner.formatStartupBanner);
    expect(barrel.printStartupBanner).toBe(banner.printStartupBanner);
  });
});
