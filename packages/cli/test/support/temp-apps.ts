import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixture apps, one folder each, holding `app/panel/resources/*.ts`. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * A folder inside the repository for temporary apps whose code must resolve `@panel/core` and
 * `@panel/api` through the repository's `node_modules` (`.tmp-*` is ignored by git, and neither
 * tsc nor vitest globs enter dot-folders).
 */
export const IN_REPO_TMP_PARENT = fileURLToPath(new URL('../', import.meta.url));

/** Temporary app roots made by one test file, removed together by `removeAll()` in `afterAll`. */
export interface TempApps {
  /** A new app root holding a copy of the fixture app `fixture`. */
  copy(fixture: string): Promise<string>;
  /** A new app root holding an empty `app/panel/resources` folder. */
  empty(): Promise<string>;
  removeAll(): Promise<void>;
}

/**
 * Creates temporary app roots under the system's temporary folder, or under `parent` (with the
 * prefix `.tmp-`) when the generated code must resolve the repository's packages.
 *
 * @example
 * const apps = tempApps();
 * afterAll(() => apps.removeAll());
 * const root = await apps.copy('blog-resources');
 */
export function tempApps(parent?: string): TempApps {
  const made: string[] = [];
  const create = async (): Promise<string> => {
    const root = await mkdtemp(parent ? join(parent, '.tmp-') : join(tmpdir(), 'panel-api-cli-'));
    made.push(root);
    return root;
  };
  return {
    async copy(fixture) {
      const root = await create();
      await cp(join(FIXTURES_DIR, fixture), root, { recursive: true });
      return root;
    },
    async empty() {
      const root = await create();
      await mkdir(join(root, 'app', 'panel', 'resources'), { recursive: true });
      return root;
    },
    async removeAll() {
      await Promise.all(made.splice(0).map((root) => rm(root, { recursive: true, force: true })));
    },
  };
}
