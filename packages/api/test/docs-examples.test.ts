import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/index.js';
import { codeBlocks, plannedSnapshots, TYPESCRIPT_LANGS } from './support/doc-code-blocks.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS_DIR = join(REPO_ROOT, 'docs');
const TSC = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');

/** Where `panel-api generate` puts the base controller the documented controllers import. */
const BASE_CONTROLLER = 'app/controllers/panel/api/resources/v1/base-resources-controller.ts';

async function docPages(): Promise<{ name: string; text: string }[]> {
  const names = (await readdir(DOCS_DIR)).filter((name) => name.endsWith('.md')).sort();
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(join(DOCS_DIR, name), 'utf8') })));
}

/** The base controller exactly as the generator renders it for `v1`. */
async function generatedBaseController(): Promise<string> {
  const template = await readFile(join(REPO_ROOT, 'templates', 'base-resources-controller.ts.hbs'), 'utf8');
  const rendered = template.replaceAll('{{version}}', 'v1');
  if (rendered.includes('{{')) throw new Error('templates/base-resources-controller.ts.hbs uses more than {{version}}; render it with handlebars here');
  return rendered;
}

function runTsc(project: string): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd: dirname(project), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** The members of a string-literal union type declared in a source file (`export type X = 'A' | 'B';`). */
function unionMembers(source: string, typeName: string): string[] {
  const declaration = new RegExp(`export type ${typeName}\\s*=([^;]+);`).exec(source)?.[1];
  if (declaration === undefined) throw new Error(`type ${typeName} not found`);
  return [...declaration.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('docs/*.md code examples', () => {
  it('compile: every ```ts block, as the files of a small app, with the repository\'s strict settings', async () => {
    const root = await mkdtemp(join(fileURLToPath(new URL('.', import.meta.url)), '.tmp-docs-'));
    made.push(root);
    const base = await generatedBaseController();
    const origins = new Map<string, string>();
    let blocks = 0;
    for (const page of await docPages()) {
      const pageBlocks = codeBlocks(page.text);
      blocks += pageBlocks.filter((block) => TYPESCRIPT_LANGS.has(block.lang)).length;
      for (const [index, snapshot] of plannedSnapshots(pageBlocks).entries()) {
        const dir = join(root, page.name.replace(/\.md$/, ''), String(index));
        const files = snapshot.some((file) => file.path === BASE_CONTROLLER) ? snapshot : [...snapshot, { path: BASE_CONTROLLER, code: base, line: 0 }];
        for (const file of files) {
          const target = join(dir, file.path);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, file.code);
          origins.set(relative(root, target), file.line === 0 ? 'the generated base controller' : `docs/${page.name}:${file.line}`);
        }
      }
    }
    expect(blocks).toBeGreaterThan(0);
    const tsconfig = {
      extends: relative(root, join(REPO_ROOT, 'tsconfig.json')).split('\\').join('/'),
      compilerOptions: { moduleDetection: 'force' },
      include: ['**/*.ts'],
    };
    await writeFile(join(root, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);

    const { exitCode, output } = await runTsc(join(root, 'tsconfig.json'));
    const legend = [...origins].filter(([file]) => output.includes(file)).map(([file, origin]) => `${file} is ${origin}`);
    expect(exitCode, `tsc failed on the docs' code blocks:\n${output}\n${legend.join('\n')}`).toBe(0);
  }, 180_000);

  it('tag every block ts, sh, text or json, so no TypeScript escapes the compile check (fragments are ```text)', async () => {
    const langs = new Set<string>();
    for (const page of await docPages()) for (const block of codeBlocks(page.text)) langs.add(block.lang);
    for (const lang of langs) expect(['ts', 'sh', 'text', 'json'], `a block tagged "${lang}"`).toContain(lang);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

describe('links between docs pages', () => {
  it('point at pages and headings that exist', async () => {
    const pages = await docPages();
    const anchors = new Map(pages.map((page) => [page.name, new Set([...page.text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)))]));
    const broken: string[] = [];
    for (const page of pages) {
      const prose = page.text.replace(/^(`{3,}).*\n[\s\S]*?^\1\s*$/gm, '');
      for (const [, target, anchor] of prose.matchAll(/\]\(([\w.-]*\.md)?(?:#([\w-]+))?\)/g)) {
        const file = target ?? page.name;
        if (!anchors.has(file) || (anchor !== undefined && !anchors.get(file)!.has(anchor))) broken.push(`${page.name}: ${target ?? ''}#${anchor ?? ''}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/errors.md and the error registries', () => {
  const errorsPage = () => readFile(join(DOCS_DIR, 'errors.md'), 'utf8');

  it('lists exactly the codes of PanelErrorCode, ApiErrorCode and ApiTokensErrorCode', async () => {
    const core = await readFile(join(REPO_ROOT, 'packages/core/src/errors/panel-errors.ts'), 'utf8');
    const api = await readFile(join(REPO_ROOT, 'packages/api/src/errors/api-errors.ts'), 'utf8');
    const tokens = await readFile(join(REPO_ROOT, 'packages/api-tokens/src/errors/api-tokens-errors.ts'), 'utf8');
    const registry = [...unionMembers(core, 'PanelErrorCode'), ...unionMembers(api, 'ApiErrorCode'), ...unionMembers(tokens, 'ApiTokensErrorCode')].sort();
    expect(registry.length).toBeGreaterThan(0);
    const inDocs = [...new Set((await errorsPage()).match(/\bPANEL_(?:API_)?ERR_[A-Z_]+\b/g) ?? [])].sort();
    expect(inDocs).toEqual(registry);
  });

  it('gives each code with a fixed status (ERROR_STATUS) that status in its table row', async () => {
    const rows = (await errorsPage()).split('\n').filter((line) => line.startsWith('| `PANEL_'));
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const row = rows.find((line) => line.startsWith(`| \`${code}\``));
      expect(row, `a table row for ${code}`).toBeDefined();
      expect(row!.split('|').at(-2), `the HTTP answer of ${code}`).toContain(String(status));
    }
  });
});
