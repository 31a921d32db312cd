import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@panel/test-support';

/** The repository's `node_modules/.bin`, where `npm install` puts the contract tools (root devDependencies). */
const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url));
/** The demo's lint configurations, next to its committed document. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../openapi/redocly.yaml', import.meta.url));
export const SPECTRAL_RULESET = fileURLToPath(new URL('../openapi/.spectral.yaml', import.meta.url));

/** A run of a tool: its exit code and output. */
interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${BIN}${command}`, args, { env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What a linter found: counts by severity and the problems, as `rule: message at pointer`. */
export interface LintResult {
  readonly errors: number;
  readonly warnings: number;
  readonly problems: string[];
}

/** Redocly CLI's `lint` with the recommended ruleset (`openapi/redocly.yaml`). */
export async function redoclyLint(file: string): Promise<LintResult> {
  const { stdout, stderr } = await run('redocly', ['lint', file, '--config', REDOCLY_CONFIG, '--format', 'json']);
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  if (!report.totals) throw new Error(`redocly lint gave no report: ${stderr}`);
  return { errors: report.totals.errors, warnings: report.totals.warnings, problems: report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`) };
}

/** Spectral's `lint` with `spectral:oas` and the OWASP ruleset (`openapi/.spectral.yaml`); severity 0 is an error, 1 a warning. */
export async function spectralLint(file: string): Promise<LintResult> {
  const { stdout, stderr } = await run('spectral', ['lint', file, '--ruleset', SPECTRAL_RULESET, '--format', 'json', '--quiet']);
  const start = stdout.indexOf('[');
  if (start < 0) throw new Error(`spectral lint gave no report: ${stdout}${stderr}`);
  const problems = JSON.parse(stdout.slice(start)) as { code: string; severity: number; message: string; path: string[] }[];
  return {
    errors: problems.filter((p) => p.severity === 0).length,
    warnings: problems.filter((p) => p.severity === 1).length,
    problems: problems.map((p) => `${p.severity === 0 ? 'error' : 'warning'} ${p.code}: ${p.message} at ${p.path.join('/')}`),
  };
}

/** A running Prism validation proxy. */
export interface PrismProxy {
  readonly url: string;
  readonly output: () => string;
  readonly close: () => Promise<void>;
}

/**
 * Starts Prism's validation proxy (`prism proxy <document> <upstream>`) on a free port: every
 * request through it is checked against the document and forwarded to the app, and its answer
 * checked too; what does not hold comes back in the `sl-violations` header.
 */
export async function startPrismProxy(document: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child: ChildProcess = spawn(`${BIN}prism`, ['proxy', document, upstream, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false', '--cors', 'false'], { env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 60 s:\n${output}`)), 60_000);
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.on('exit', (code) => reject(new Error(`Prism exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
