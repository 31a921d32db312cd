// The README's quick-start facts (issue 31, finding 11): "the README sends you to
// `/panel/api_tokens` without saying to sign in first; every install on Node 20 prints an
// EBADENGINE warning the README does not mention; no duration given for `npm test`". Each fact is
// compared with its source: the demo's seed, the suite vitest collects, the root package.json.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../examples/blog/db/seed.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = join(REPO_ROOT, 'README.md');
/** How far the README's file count may lag the suite before this test asks for a new figure. */
const COUNT_TOLERANCE = 0.15;

const readme = () => readFile(README, 'utf8');
const source = (path: string) => readFile(join(REPO_ROOT, path), 'utf8');

/** The README's paragraphs, each on one line. */
async function paragraphs(): Promise<string[]> {
  return (await readme()).split(/\n\s*\n/).map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' '));
}

/** A glob of vitest's `include` (`src/**\/*.test.ts`) as a regular expression on a project-relative path. */
function globPattern(glob: string): RegExp {
  if (/[?{}[\]!]/.test(glob)) throw new Error(`readme-docs: the include pattern "${glob}" uses glob syntax this test does not read; teach globPattern it.`);
  const body = glob
    .split('/')
    .map((part) => (part === '**' ? '(?:[^/]+/)*' : `${part.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`))
    .join('');
  return new RegExp(`^${body.replace(/\/$/, '')}$`);
}

/**
 * Every file under `dir` (project-relative, `/`-separated), less vitest's default exclude
 * (node_modules, .git) and dot folders: the `.tmp-*` apps other test files create and remove
 * while this one runs (vitest would collect their tests only if they existed when it started).
 */
async function filesUnder(dir: string, root = dir): Promise<string[]> {
  // Never entered (not read and then left out): a `.tmp-*` app removed while it is read would fail the read.
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isFile()) files.push(relative(root, join(dir, entry.name)).split('\\').join('/'));
    else if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) files.push(...(await filesUnder(join(dir, entry.name), root)));
  }
  return files;
}

/** The test files `npm test` runs: each project of the root vitest.config.ts, matched by that project's own `include` patterns. */
async function collectedTestFiles(): Promise<string[]> {
  const rootConfig = (await import(pathToFileURL(join(REPO_ROOT, 'vitest.config.ts')).href)).default as { test?: { projects?: unknown[] } };
  const projects = rootConfig.test?.projects ?? [];
  expect(projects.length, 'the root vitest.config.ts lists its projects').toBeGreaterThan(0);
  const files: string[] = [];
  for (const project of projects) {
    expect(typeof project, 'each project of the root config is a folder').toBe('string');
    const dir = join(REPO_ROOT, project as string);
    const config = (await import(pathToFileURL(join(dir, 'vitest.config.ts')).href)).default as { test?: { include?: string[]; exclude?: string[] } };
    expect(config.test?.exclude, `${project}: an exclude list this count does not apply`).toBeUndefined();
    const patterns = (config.test?.include ?? []).map(globPattern);
    expect(patterns.length, `${project} includes test files`).toBeGreaterThan(0);
    for (const path of await filesUnder(dir)) if (patterns.some((pattern) => pattern.test(path))) files.push(`${project}/${path}`);
  }
  return files;
}

describe('README.md, the quick start', () => {
  it('sends the reader to /panel/api_tokens only after saying to sign in at /panel/login with the demo admin\'s real email and password', async () => {
    const seed = await source('examples/blog/db/seed.ts');
    const adminEmail = /email: '([^']+)'[^\n]*admin: true/.exec(seed)?.[1];
    expect(adminEmail, 'the seed has an admin user').toBeDefined();
    const tokensPort = /(?:PORT \?\? |wholeNumberFromEnv\('PORT', )(\d+)/.exec(await source('examples/blog/src/server-tokens.ts'))?.[1];
    expect(tokensPort, 'server-tokens.ts has a default port').toBeDefined();

    const mentions = (await paragraphs()).filter((paragraph) => paragraph.includes('/panel/api_tokens'));
    expect(mentions).toHaveLength(1);
    const paragraph = mentions[0]!;
    // The sentence that names the screen: from the last sentence end before it.
    const upTo = paragraph.slice(0, paragraph.indexOf('/panel/api_tokens'));
    const sentence = upTo.slice(Math.max(upTo.lastIndexOf('. '), upTo.lastIndexOf('.) ')) + 1);
    const order = ['sign in', `http://127.0.0.1:${tokensPort}/panel/login`, `\`${adminEmail}\``, `\`${DEMO_PASSWORD}\``].map((words) => sentence.indexOf(words));
    expect(order.every((index) => index >= 0), `"${sentence}" names the sign-in page, ${adminEmail} and the seed's password`).toBe(true);
    expect([...order].sort((a, b) => a - b), 'sign in, the page, the email, the password, in that order').toEqual(order);
  });

  it('states the suite\'s file count within 15 % of the test files vitest collects, and its test count and duration', async () => {
    const stated = /The suite \(([\d,]+) files, about ([\d,]+) tests\) takes (?:about \d+|\d+ to \d+) minutes/.exec((await paragraphs()).join('\n'));
    expect(stated, 'the README says "The suite (<n> files, about <n> tests) takes about <n> minutes" (or "<n> to <n> minutes")').not.toBeNull();
    const statedFiles = Number(stated![1]!.replace(/,/g, ''));
    const files = await collectedTestFiles();
    expect(files.length).toBeGreaterThan(0);
    expect(Math.abs(statedFiles - files.length) / files.length, `README: ${statedFiles} files; vitest collects ${files.length}`).toBeLessThanOrEqual(COUNT_TOLERANCE);
  });

  it('mentions the EBADENGINE warning of an install on Node 20 while the root package.json\'s engines allow Node 20', async () => {
    const engines = (JSON.parse(await source('package.json')) as { engines: { node: string } }).engines.node;
    const lowest = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(engines.trim());
    expect(lowest, `engines.node "${engines}" is a ">=" range this test reads`).not.toBeNull();
    const allowsNode20 = Number(lowest![1]) <= 20;
    const mention = (await paragraphs()).some((paragraph) => /On Node 20, `npm install` prints `EBADENGINE`/.test(paragraph));
    // Once Node 20 is refused, the warning cannot occur: the sentence goes with it.
    expect(mention, `engines.node "${engines}"`).toBe(allowsNode20);
  });
});
