/** One fenced block of a Markdown page. */
export interface GuideBlock {
  /** The info string's first word (`ts`, `sh`, `text`, `json`), or `''`. */
  readonly lang: string;
  readonly code: string;
  /** The path named by a first line such as `// src/server.ts`, if there is one. */
  readonly path: string | undefined;
}

const PATH_COMMENT = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|js|mjs))\s*$/;

/** The fenced blocks of a Markdown page, in order (the convention docs/*.md follow: a path comment names an app file). */
export function guideBlocks(markdown: string): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  for (const match of markdown.matchAll(/^(`{3,})(\w*)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)) {
    const code = match[3]!;
    blocks.push({ lang: match[2]!, code, path: PATH_COMMENT.exec(code.split('\n')[0] ?? '')?.[1] });
  }
  return blocks;
}

/** Each file a page shows, at its path: the last version when it is shown twice. */
export function guideFiles(blocks: readonly GuideBlock[]): Map<string, string> {
  return new Map(blocks.filter((block) => block.path !== undefined).map((block) => [block.path!, block.code]));
}

/** The block right after the `sh` block whose code is exactly `command`: what the guide says the command prints. */
export function outputOf(blocks: readonly GuideBlock[], command: string): GuideBlock {
  const index = blocks.findIndex((block) => block.lang === 'sh' && block.code.trim() === command);
  const output = blocks[index + 1];
  if (index < 0 || !output) throw new Error(`the guide has no \`${command}\` block followed by its output`);
  return output;
}
