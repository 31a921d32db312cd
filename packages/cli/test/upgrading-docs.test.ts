// docs/upgrading.md's commands against the CLI: what it says of `panel-api install`, and how it
// runs the CLI. docs/generators.md: "Run it with `npx --no-install panel-api …` …: without
// `--no-install`, npx run where the app's bin is not installed asks the registry for a package
// named `panel-api`, which is not this one".
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPanelApi } from './support/run-panel-api.js';

const UPGRADING = fileURLToPath(new URL('../../../docs/upgrading.md', import.meta.url));
const CLI_README = fileURLToPath(new URL('../README.md', import.meta.url));

/** The `npx … panel-api` runs of a text that lack `--no-install`. */
const bareRuns = (text: string) => [...text.matchAll(/\bnpx\s+(?:--?[\w-]+\s+)*panel-api\b/g)].map((m) => m[0]).filter((run) => !/^npx\s+--no-install\s/.test(run));

describe('packages/cli/README.md', () => {
  it('"Run it with `npx --no-install panel-api …`": every npx panel-api in the CLI\'s README has --no-install', async () => {
    expect(bareRuns(await readFile(CLI_README, 'utf8'))).toEqual([]);
  });
});

describe('docs/upgrading.md', () => {
  it('"Run it with `npx --no-install panel-api …`": every npx panel-api in upgrading.md has --no-install', async () => {
    expect(bareRuns(await readFile(UPGRADING, 'utf8'))).toEqual([]);
  });

  it('what it says of `panel-api install` is what the CLI does: install --help exits 0 and describes Edition B\'s install', async () => {
    const help = await runPanelApi(['install', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.out.join('\n')).toMatch(/Edition B: write the migration of the API token tables/);
    const paragraph = (await readFile(UPGRADING, 'utf8')).split(/\n\s*\n/).find((p) => p.includes('panel_api:install'))!.replace(/\s*\n\s*/g, ' ');
    expect(paragraph).not.toContain("unknown command 'install'");
    expect(paragraph).toContain('`panel-api install` is Edition B');
  });
});
