// docs/getting-started-outside.md §1, the install from this repository's tarballs (issue 31,
// finding 1: "the packages are not on the registry and nothing says how to install them from this
// repository"). The packing test runs the registry block with tarballs substituted; this file holds
// the second block, the one a reader copies: its `packs/<file>.tgz` names are the names npm gives
// the packages' tarballs (what `npm run pack:all` writes), and it names a tarball for every
// package the guide's registry install lines name, for either edition. Nothing is packed here.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guideBlocks } from './support/guide-blocks.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GUIDE = join(REPO_ROOT, 'docs', 'getting-started-outside.md');

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
}

/**
 * The file `npm pack` writes for a package, which `scripts/pack-all.mjs` keeps (it records npm's
 * `filename`): the scope's `@` dropped and its `/` turned into `-`, then `-<version>.tgz`.
 */
function tarballName({ name, version }: Manifest): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** The packages `npm run pack:all` packs: every packages/* that is not private. */
async function publishedPackages(): Promise<Manifest[]> {
  const dirs = await readdir(join(REPO_ROOT, 'packages'));
  const manifests = await Promise.all(dirs.map(async (dir) => JSON.parse(await readFile(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as Manifest));
  return manifests.filter((manifest) => !manifest.private);
}

const tarballsNamed = (text: string) => [...text.matchAll(/\bpacks\/([\w.@-]+\.tgz)\b/g)].map((match) => match[1]!);

async function page() {
  const markdown = await readFile(GUIDE, 'utf8');
  const shell = guideBlocks(markdown).filter((block) => block.lang === 'sh');
  const tarballBlocks = shell.filter((block) => tarballsNamed(block.code).length > 0);
  expect(tarballBlocks, 'the guide has one block installing from packs/').toHaveLength(1);
  return { markdown, shell, tarballBlock: tarballBlocks[0]!.code };
}

describe('docs/getting-started-outside.md, the install from this repository\'s tarballs', () => {
  it('names each tarball as npm pack names it: <scope>-<name>-<version>.tgz of a published package', async () => {
    const { markdown } = await page();
    const expected = new Map((await publishedPackages()).map((manifest) => [tarballName(manifest), manifest.name]));
    expect(tarballName({ name: '@panel/core', version: '0.1.0' }), 'npm\'s rule').toBe('panel-core-0.1.0.tgz');
    const named = tarballsNamed(markdown);
    expect(named.length).toBeGreaterThan(0);
    const unknown = named.filter((file) => !expected.has(file));
    expect(unknown, `tarballs the guide names that pack:all does not write (it writes ${[...expected.keys()].join(', ')})`).toEqual([]);
  });

  it('installs from the folder pack:all writes by default (packs/), after running it there', async () => {
    const { tarballBlock } = await page();
    const packAll = await readFile(join(REPO_ROOT, 'scripts', 'pack-all.mjs'), 'utf8');
    expect(packAll).toContain("join(root, 'packs')");
    expect((JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['pack:all']).toBe('node scripts/pack-all.mjs');
    const packLine = tarballBlock.split('\n').findIndex((line) => /\bnpm run pack:all\b/.test(line));
    const firstInstall = tarballBlock.split('\n').findIndex((line) => tarballsNamed(line).length > 0);
    expect(packLine, 'the block runs npm run pack:all').toBeGreaterThanOrEqual(0);
    expect(packLine).toBeLessThan(firstInstall);
  });

  it('has a tarball for every @panel/* package the guide\'s registry install lines name (Edition A in §1, Edition B below it)', async () => {
    const { shell, tarballBlock } = await page();
    const manifests = new Map((await publishedPackages()).map((manifest) => [manifest.name, manifest]));
    const registryLines = shell.flatMap((block) => block.code.split('\n')).filter((line) => /^npm install\b/.test(line.trim()) && tarballsNamed(line).length === 0);
    const named = [...new Set(registryLines.flatMap((line) => line.split(/\s+/).filter((word) => /^@panel\/[\w-]+$/.test(word))))];
    // Both editions: the guide's §1 line and its Edition B line.
    expect(named).toEqual(expect.arrayContaining(['@panel/core', '@panel/api', '@panel/api-cli', '@panel/api-tokens']));
    const inBlock = new Set(tarballsNamed(tarballBlock));
    const missing = named.filter((name) => !manifests.has(name) || !inBlock.has(tarballName(manifests.get(name)!)));
    expect(missing, 'registry packages without their tarball in the tarball block').toEqual([]);
  });
});
