// The docs' curl lines against the demo, run by a shell as written (issue 46: "the docs' curl
// lines that a shell runs as written (`-g`)"): curl reads `[` and `]` in a URL as its own
// globbing unless given `-g`, and then exits 3 without sending anything. Each GET line of
// docs/ and the README that reads the demo with its admin key (no shell variable, no body, no
// pipe) is run through `sh -c` against a demo on a free port, and must answer 200.
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '@panel/test-support';
import { buildDemoApp, type DemoApp } from '../src/build-app.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS_ADDRESS = 'http://127.0.0.1:3000';

/** Every `curl` command of a ```sh block, its `\` continuations joined. */
function curlCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!.replaceAll('\\\n', ' '));
  return blocks.flatMap((block) => block.split('\n')).map((line) => line.trim().replace(/\s+/g, ' ')).filter((line) => line.startsWith('curl '));
}

/** The lines this test can run verbatim: a GET of the demo's API with the admin key, nothing else from the shell. */
function runnable(command: string): boolean {
  return command.includes(`${DOCS_ADDRESS}/api/resources/`) && command.includes("'Authorization: ApiKey demo-admin-key'") && !/[$|;>]|\s-(X|d|F|b|c|u)\s/.test(command);
}

function shell(command: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], (error, stdout, stderr) => resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}

const kind = testDatabaseKinds()[0]!;

describe(`the docs' curl lines, run by a shell as written [${kind}]`, () => {
  let demo: DemoApp;
  let base: string;

  beforeAll(async () => {
    demo = await buildDemoApp({ database: await openTestDatabase(kind) });
    await demo.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(demo.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await demo?.app.close();
    await demo?.database.close();
  });

  it('every GET line of docs/ and the README that reads the demo answers 200 (curl -g where the URL has brackets)', async () => {
    const files = [join(REPO_ROOT, 'README.md'), ...(await readdir(join(REPO_ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => join(REPO_ROOT, 'docs', name))];
    const commands = (await Promise.all(files.map(async (file) => curlCommands(await readFile(file, 'utf8')).filter(runnable).map((command) => ({ file, command }))))).flat();
    // The querying page's three lines with brackets are among them.
    expect(commands.filter(({ command }) => command.includes('filter[') || command.includes('include_fields[')).length).toBeGreaterThanOrEqual(3);
    const failed: string[] = [];
    for (const { file, command } of commands) {
      // Only the address changes; the status is asked of curl after the line's own options.
      const run = await shell(`${command.replaceAll(DOCS_ADDRESS, base)} -s -o /dev/null -w '%{http_code}'`);
      if (run.exitCode !== 0 || run.stdout !== '200') failed.push(`${file.slice(REPO_ROOT.length)}: exit ${run.exitCode}, status ${run.stdout || '–'}: ${command}`);
    }
    expect(failed).toEqual([]);
  });
});
