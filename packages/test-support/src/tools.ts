import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The binary of a tool a suite runs (HAProxy, PgBouncer): `scripts/<script>` finds it, or
 * installs Debian's package when it is missing, and prints its path last. `suite` names who
 * needs it in the error when neither works.
 */
export async function ensureTool(script: string, suite: string): Promise<string> {
  const path = fileURLToPath(new URL(`../../../scripts/${script}`, import.meta.url));
  try {
    const { stdout } = await run('bash', [path], { timeout: 300_000 });
    return stdout.trim().split('\n').at(-1)!;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${suite} needs the tool scripts/${script} provides, and it could not:\n${stderr ?? (error as Error).message}`);
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:<port> right now. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
