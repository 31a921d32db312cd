import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A planned write: a file's path relative to the root, its content, and whether it replaces one. */
export interface PlannedFile {
  readonly path: string;
  readonly content: string;
  readonly overwrite: boolean;
}

/**
 * The files an action means to write, kept in memory until `commit()`: actions plan on the
 * tree, and a dry run prints the plan instead of committing it.
 */
export class FileTree {
  readonly root: string;
  readonly #planned: PlannedFile[] = [];

  constructor(root: string) {
    this.root = root;
  }

  /** Whether a file exists on disk or in the plan. */
  exists(path: string): boolean {
    return this.#planned.some((f) => f.path === path) || existsSync(join(this.root, path));
  }

  /** Plans a write. */
  write(path: string, content: string): PlannedFile {
    const planned = { path, content, overwrite: existsSync(join(this.root, path)) };
    this.#planned.push(planned);
    return planned;
  }

  /** The planned writes, in order. */
  get planned(): readonly PlannedFile[] {
    return this.#planned;
  }

  /** Writes every planned file. */
  async commit(): Promise<void> {
    for (const file of this.#planned) {
      const target = join(this.root, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
    }
  }
}
