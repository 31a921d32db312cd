// "Typecheck of packages/api and packages/panel-ui succeeds with @panel/api-tokens absent"
// (issue 41): tsc checks their sources with a tsconfig whose `paths` maps @panel/api-tokens to a
// stand-in that exports nothing and holds a type error of its own: any import of the package
// anywhere in the program (a value, a type, `import()`, a bare import) brings the stand-in in, and
// its error with it. (A mapping to a missing file would not do: tsc then falls back to node_modules.)
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** The Edition A packages whose sources must type-check without Edition B. */
const EDITION_A = ['api', 'panel-ui'];

/** Runs tsc over `include` with @panel/api-tokens removed; its exit code and the lines of its errors. */
async function typecheckWithoutEditionB(folder: string, include: string[]): Promise<{ exitCode: number; errors: string[] }> {
  const config = join(folder, `tsconfig-${include.length}-${Date.now()}.json`);
  const standIn = join(folder, 'absent-api-tokens.ts');
  await writeFile(standIn, "// @panel/api-tokens is absent.\nexport const API_TOKENS_ABSENT: 'absent' = 'imported while absent';\n");
  await writeFile(config, JSON.stringify({
    extends: join(REPO_ROOT, 'tsconfig.json'),
    compilerOptions: { noEmit: true, typeRoots: [join(REPO_ROOT, 'node_modules', '@types')], paths: { '@panel/api-tokens': [standIn] } },
    include,
  }));
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve({ exitCode: error ? Number(error.code ?? 1) : 0, errors: stdout.split('\n').filter((line) => line.includes('error TS')) });
    });
  });
}

describe('Edition A type-checks without @panel/api-tokens', { timeout: 120_000 }, () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'panel-edition-a-'));
    await writeFile(join(folder, 'package.json'), '{ "type": "module" }\n');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('the mapping removes the package: a source that imports even a type of it does not type-check', async () => {
    const probe = join(folder, 'probe.ts');
    await writeFile(probe, "import type { ApiTokenService } from '@panel/api-tokens';\nexport type Service = ApiTokenService;\n");
    const result = await typecheckWithoutEditionB(folder, [probe]);
    expect(result.exitCode).not.toBe(0);
    expect(result.errors.join('\n')).toMatch(/absent-api-tokens\.ts.*error TS2322/);
    expect(result.errors.join('\n')).toMatch(/probe\.ts.*error TS2305.*ApiTokenService/);
  });

  it(`"@panel/api and @panel/panel-ui import nothing from it, not even types": ${EDITION_A.join(', ')} type-check with it absent`, async () => {
    const result = await typecheckWithoutEditionB(folder, EDITION_A.map((dir) => join(REPO_ROOT, 'packages', dir, 'src', '**', '*.ts')));
    expect(result.errors).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});
