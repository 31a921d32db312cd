#!/usr/bin/env node
// Times `panel-api generate` on a fixture of N resources (default 200) in a temporary folder, as
// a user runs it: a fresh process each time. It prints figures; it asserts nothing.
//
//   node scripts/bench-generate.mjs [count]     (npm run bench --workspace @panel/api-cli)
//
// Runs: the in-repo bin (TypeScript sources through tsx) and, when packages/cli/dist exists
// (npm run build), the built CLI on plain Node, as an installed package runs. For each: a first
// generate (writes every file), a second one (skips every file) and `generate --check`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const COUNT = Number(process.argv[2] ?? 200);
const WORDS = ['Account', 'Invoice', 'Order', 'Product', 'Customer', 'Shipment', 'Payment', 'Refund', 'Coupon', 'Review'];

/** Resource i: plain, named, or extending the previous resource class (one in ten), so the scan follows imports. */
function resourceSource(i) {
  const name = `${WORDS[i % WORDS.length]}${i}`;
  const fields = `  override fields() {\n    return [field.id(), field.text('name', { required: true }), field.integer('position'), field.datetime('created_at', { hideOn: ['new', 'edit'] })];\n  }\n`;
  if (i % 10 === 9) {
    const base = `${WORDS[(i - 1) % WORDS.length]}${i - 1}`;
    return `import { field } from '@panel/core';\nimport ${base}Resource from './${fileName(i - 1)}.js';\n\nexport default class ${name}Resource extends ${base}Resource {\n${fields}}\n`;
  }
  const exported = i % 2 === 0 ? 'export default class' : 'export class';
  return `import { Resource, field } from '@panel/core';\n\n/** Fixture resource ${i}. */\n${exported} ${name}Resource extends Resource {\n${fields}}\n`;
}

function fileName(i) {
  return `${WORDS[i % WORDS.length].toLowerCase()}-${i}`;
}

function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'panel-api-bench-'));
  const dir = join(root, 'app', 'panel', 'resources');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < COUNT; i += 1) writeFileSync(join(dir, `${fileName(i)}.ts`), resourceSource(i));
  return root;
}

function time(args) {
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, lines: out.trimEnd().split('\n').length };
}

const runners = [{ label: 'in-repo bin (sources via tsx)', args: [join(REPO, 'packages/cli/bin/panel-api.js')] }];
const dist = join(REPO, 'packages/cli/dist/main.js');
if (existsSync(dist)) {
  const script = `const { runCli } = await import(${JSON.stringify(new URL(`file://${dist}`).href)}); process.exitCode = await runCli(process.argv.slice(1));`;
  runners.push({ label: 'built CLI (dist, plain node)', args: ['--input-type=module', '-e', script] });
}

console.log(`panel-api generate on ${COUNT} resources (Node ${process.version}, ${process.platform})`);
for (const runner of runners) {
  const root = fixture();
  try {
    const first = time([...runner.args, 'generate', '--root', root]);
    const second = time([...runner.args, 'generate', '--root', root]);
    const check = time([...runner.args, 'generate', '--check', '--root', root]);
    console.log(`  ${runner.label}`);
    console.log(`    generate (writes ${first.lines} files)   ${first.ms.toFixed(0).padStart(6)} ms`);
    console.log(`    generate again (all skipped)   ${second.ms.toFixed(0).padStart(6)} ms`);
    console.log(`    generate --check               ${check.ms.toFixed(0).padStart(6)} ms`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
if (runners.length === 1) console.log('  (npm run build first to time the built CLI as well)');
