// The published packages behave as libraries in a host app (issue: "packages that behave as
// libraries"): what the host also installs (fastify, kysely, pg) is a peer dependency with a
// range, never an exact pin; a Fastify of another major fails at register with a clear message;
// Edition A does not need @panel/api-tokens (an extension that depends on them, never the reverse).
// The packing test installs them into a fresh app.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { mountPanelApi, mountPanelAttachments } from '@panel/api';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLISHED = ['core', 'api-tokens', 'api', 'cli', 'panel-ui'];
/** The packages an Edition A app installs: Edition B (@panel/api-tokens) builds on them. */
const EDITION_A = ['api', 'panel-ui'];
const HOST_SHARED = { fastify: '^5', kysely: '^0.28 || ^0.29', pg: '^8' } as const;

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

async function manifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as Manifest;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')).map((entry) => join(entry.parentPath, entry.name));
}

describe('packages as libraries', () => {
  it('"fastify, kysely, pg become peer dependencies with ranges (^5, ^0.28, ^8)", widened to Kysely 0.29 (issue 46: "Kysely 0.29 inside the peer range and tested"): no published package lists them as dependencies', async () => {
    for (const dir of PUBLISHED) {
      const pkg = await manifest(dir);
      for (const [name, range] of Object.entries(HOST_SHARED)) {
        expect(pkg.dependencies?.[name], `${pkg.name} dependencies.${name}`).toBeUndefined();
        if (pkg.peerDependencies?.[name] !== undefined) expect(pkg.peerDependencies[name], `${pkg.name} peerDependencies.${name}`).toBe(range);
      }
    }
    expect((await manifest('core')).peerDependencies).toMatchObject({ kysely: '^0.28 || ^0.29', pg: '^8' });
    expect((await manifest('api')).peerDependencies).toMatchObject({ fastify: '^5' });
  });

  it('"other dependencies take caret ranges": every dependency of a published package is a ^range', async () => {
    for (const dir of PUBLISHED) {
      const pkg = await manifest(dir);
      for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) expect(range, `${pkg.name} → ${name}`).toMatch(/^\^\d/);
    }
  });

  it('"@panel/api and @panel/panel-ui import nothing from it, not even types; their package.json files drop it" (issue 41: Edition B is an extension)', async () => {
    for (const dir of EDITION_A) {
      const pkg = (await manifest(dir)) as Manifest & { devDependencies?: Record<string, string> };
      for (const field of ['dependencies', 'peerDependencies', 'devDependencies', 'peerDependenciesMeta'] as const) expect(pkg[field]?.['@panel/api-tokens'], `${pkg.name} ${field}`).toBeUndefined();
      const src = join(REPO_ROOT, 'packages', dir, 'src');
      const importers: string[] = [];
      for (const file of await sourceFiles(src)) if (/(from\s*|import\s*\(\s*|import\s+)['"]@panel\/api-tokens['"]/.test(await readFile(file, 'utf8'))) importers.push(relative(REPO_ROOT, file));
      expect(importers, pkg.name).toEqual([]);
    }
    // Edition B depends on the API (it is one of its extensions), not the reverse.
    expect((await manifest('api-tokens')).dependencies).toMatchObject({ '@panel/api': '^0.1.0' });
  });

  it('"fastify-plugin metadata so a wrong major fails at register with a clear message": Fastify 4 is refused by both plugins', async () => {
    for (const plugin of [mountPanelApi, mountPanelAttachments]) {
      const app = Fastify();
      // The installed Fastify is 5; its own version check reads `app.version`.
      Object.defineProperty(app, 'version', { value: '4.29.1' });
      await expect(app.register(plugin as never, { panel: {} } as never).ready()).rejects.toMatchObject({
        code: 'FST_ERR_PLUGIN_VERSION_MISMATCH',
        message: expect.stringMatching(/^fastify-plugin: panel-(api|attachments) - expected '5\.x' fastify version, '4\.29\.1' is installed$/),
      });
      await app.close();
    }
  });

  it('the engine decorates the app it is registered on; the attachments plugin stays encapsulated', () => {
    const meta = (mountPanelApi as unknown as Record<symbol, unknown>)[Symbol.for('plugin-meta')];
    expect(meta).toMatchObject({ fastify: '5.x', name: 'panel-api' });
    expect((mountPanelApi as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')]).toBe(true);
    expect((mountPanelAttachments as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')]).toBe(false);
  });
});
