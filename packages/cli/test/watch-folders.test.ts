import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { watchFolders } from '../src/watch/watch-folders.js';
import { tempApps } from './support/temp-apps.js';

// The watcher behind `generate --watch` and `dev` on a real folder. A tester found that on Node
// 20 (Linux), after one "safe write" (a temporary file renamed over the original: vim, JetBrains,
// sed -i, git checkout) the file was never reported again: Node 20's recursive fs.watch watched
// each file, and the replaced file lost its watch. docs/generators.md promises "After each change".

const apps = tempApps();
afterAll(() => apps.removeAll());

/** Waits (polling, generously) until `seen` holds `count` reports, or `done(seen)`; the reports so far after 10 s otherwise. */
async function reports(seen: string[][], count: number, done = (all: string[][]) => all.length >= count): Promise<string[][]> {
  const until = Date.now() + 10_000;
  while (!done(seen) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return seen;
}

/** Lets the watchers start and any stray events settle before the next change. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe('watchFolders on a real folder', { timeout: 60_000 }, () => {
  let watcher: { close(): void } | undefined;
  afterEach(() => watcher?.close());

  it('a file replaced by renaming a temporary file over it, twice, then appended to: each change is reported', async () => {
    const root = await apps.copy('blog-resources');
    const book = join(root, 'app/panel/resources/book.ts');
    await writeFile(book, "export default class BookResource {}\n");
    const temporary = join(root, 'book.ts.tmp');
    const seen: string[][] = [];
    watcher = watchFolders(root, ['app/panel/resources'], (changed) => seen.push(changed));
    await settle();

    for (const edit of [1, 2]) {
      await writeFile(temporary, `${await readFile(book, 'utf8')}// edit ${edit}\n`);
      await rename(temporary, book);
      expect(await reports(seen, edit)).toHaveLength(edit);
      expect(seen[edit - 1]).toEqual(['app/panel/resources/book.ts']);
      await settle();
    }
    await appendFile(book, '// appended\n');
    expect(await reports(seen, 3)).toHaveLength(3);
    expect(seen[2]).toEqual(['app/panel/resources/book.ts']);
  });

  it('a folder made after the watch starts: its files are reported; after a folder is removed the watcher goes on', async () => {
    const root = await apps.empty();
    const seen: string[][] = [];
    watcher = watchFolders(root, ['app/panel/resources'], (changed) => seen.push(changed));
    await settle();

    await mkdir(join(root, 'app/panel/resources/admin'));
    await settle();
    await writeFile(join(root, 'app/panel/resources/admin/tag.ts'), 'export {};\n');
    expect(await reports(seen, 1)).toEqual([['app/panel/resources/admin/tag.ts']]);

    await settle();
    await rm(join(root, 'app/panel/resources/admin'), { recursive: true });
    await settle();
    await writeFile(join(root, 'app/panel/resources/post.ts'), 'export {};\n');
    const hasPost = (all: string[][]) => all.flat().includes('app/panel/resources/post.ts');
    expect((await reports(seen, 0, hasPost)).slice(1).flat()).toContain('app/panel/resources/post.ts');
  });
});
