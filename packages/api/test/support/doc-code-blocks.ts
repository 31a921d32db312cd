/**
 * Reads the fenced code blocks of a Markdown page and lays its TypeScript blocks out as files of
 * a small app, so that `tsc` can check them together: a block whose first line is a comment
 * naming a path (`// app/panel/resources/book.ts`) is written at that path, so blocks can import
 * each other as an app's files do; any other block is a file of its own.
 */

/** One fenced block of a Markdown page. */
export interface CodeBlock {
  /** The info string's first word (`ts`, `sh`, `text`…), or `''`. */
  readonly lang: string;
  readonly code: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** The path named by the block's first line (`// src/server.ts`), if it names one. */
  readonly path: string | undefined;
}

/** A file to write for `tsc`, and the block it came from. */
export interface PlannedSource {
  readonly path: string;
  readonly code: string;
  readonly line: number;
}

/** The languages compiled as TypeScript. */
export const TYPESCRIPT_LANGS: ReadonlySet<string> = new Set(['ts']);

const PATH_COMMENT = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts))\s*$/;

/** The fenced blocks of a Markdown text, in order. An unclosed fence is an error. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const lang = open[2]!.trim().split(/\s+/)[0] ?? '';
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.startsWith(fence) && lines[j]!.trim() === fence)) body.push(lines[j++]!);
    if (j >= lines.length) throw new Error(`line ${i + 1}: the code block opened here is never closed`);
    const code = `${body.join('\n')}\n`;
    const path = PATH_COMMENT.exec(body[0] ?? '')?.[1];
    if (path?.split('/').includes('..')) throw new Error(`line ${i + 1}: a block path must stay inside the app`);
    blocks.push({ lang, code, line: i + 1, path });
    i = j;
  }
  return blocks;
}

/**
 * The file sets ("snapshots") to typecheck for one page's TypeScript blocks. A page may show a
 * file twice (as generated, then edited): snapshot k holds the k-th version of every file shown
 * more than once, beside the latest earlier version of the others, so each version is checked
 * against the files it sits with. Blocks without a path go into the first snapshot as
 * `block-<line>.ts`.
 */
export function plannedSnapshots(blocks: readonly CodeBlock[]): PlannedSource[][] {
  const versions = new Map<string, CodeBlock[]>();
  const loose: CodeBlock[] = [];
  for (const block of blocks) {
    if (!TYPESCRIPT_LANGS.has(block.lang)) continue;
    if (block.path === undefined) loose.push(block);
    else versions.set(block.path, [...(versions.get(block.path) ?? []), block]);
  }
  const count = Math.max(1, ...[...versions.values()].map((list) => list.length));
  const snapshots: PlannedSource[][] = [];
  for (let k = 0; k < count; k += 1) {
    const files: PlannedSource[] = [...versions].map(([path, list]) => {
      const block = list[Math.min(k, list.length - 1)]!;
      return { path, code: block.code, line: block.line };
    });
    if (k === 0) files.push(...loose.map((block) => ({ path: `block-${block.line}.ts`, code: block.code, line: block.line })));
    if (files.length > 0) snapshots.push(files);
  }
  return snapshots;
}
