// docs/generators.md's CI recipe, as a user copies it (issue 31, finding 6): "`docs/generators.md`'s
// CI recipe runs `npx panel-api` without `--no-install` (which the same page warns against) on
// `node-version: 20` (end of life per the README)". The recipe is read from the page's own block.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guideBlocks } from './support/guide-blocks.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = join(REPO_ROOT, 'docs', 'generators.md');
/** The Node.js lines users run (README, docs/decisions.md#node-versions): the LTS lines CI tests. */
const SUPPORTED_NODE = ['22', '24'];

/** The page's GitHub Actions workflow: the block that names a file under .github/workflows/. */
async function ciRecipe(): Promise<string> {
  const recipes = guideBlocks(await readFile(PAGE, 'utf8')).filter((block) => /^# \.github\/workflows\/\S+\.ya?ml$/m.test(block.code));
  expect(recipes, 'docs/generators.md has one GitHub Actions recipe').toHaveLength(1);
  return recipes[0]!.code;
}

describe('docs/generators.md, the CI recipe', () => {
  it('runs every panel-api command as "npx --no-install panel-api": never a package of the registry\'s', async () => {
    const recipe = await ciRecipe();
    const invocations = recipe.split('\n').filter((line) => /\bpanel-api\s+\w/.test(line) && !line.trim().startsWith('#') && !/^\s*name:/.test(line));
    expect(invocations.length).toBeGreaterThan(0);
    for (const line of invocations) expect(line, line).toMatch(/(^|[\s:])npx --no-install panel-api /);
    // Nor anywhere else on the page: plain `npx panel-api` is what the page warns against.
    expect(await readFile(PAGE, 'utf8')).not.toMatch(/npx\s+panel-api\b/);
  });

  it('sets up a supported Node.js version, 22 or 24 (Node 20 reached its end of life)', async () => {
    const recipe = await ciRecipe();
    const versions = [...recipe.matchAll(/node-version:\s*(\[[^\]]*\]|\S+)/g)].flatMap((match) => match[1]!.replace(/[[\]'"]/g, '').split(',').map((version) => version.trim()));
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(SUPPORTED_NODE, `node-version: ${version}`).toContain(version.replace(/\.x$/, ''));
  });
});
