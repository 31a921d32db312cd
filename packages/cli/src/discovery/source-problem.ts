import type { SourceFile } from 'ts-morph';
import { messages } from '../messages.js';

/** Something in an app's source that panel-api cannot read without running it, by file and line. */
export interface SourceProblem {
  /** The file, relative to the app root, with `/` separators. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

/** The diagnostic shape the TypeScript parser leaves on a source file node. */
interface ParseDiagnostic {
  readonly start?: number;
  readonly messageText: string | { readonly messageText: string };
}

/**
 * The first syntax error of a file, or undefined. It reads the parser's own diagnostics
 * (`parseDiagnostics` on the TypeScript source file node), which costs nothing more than the
 * parse: a full program's diagnostics would type-check the app.
 */
export function parseProblem(source: SourceFile, file: string): SourceProblem | undefined {
  const diagnostics = (source.compilerNode as unknown as { parseDiagnostics?: readonly ParseDiagnostic[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  if (!first) return undefined;
  const text = typeof first.messageText === 'string' ? first.messageText : first.messageText.messageText;
  return { file, line: source.getLineAndColumnAtPos(first.start ?? 0).line, message: messages.syntaxError(text) };
}

/** The line a problem is printed as: `<file>:<line>: <message>`. */
export function problemLine(problem: SourceProblem): string {
  return messages.unreadable(problem.file, problem.line, problem.message);
}
