/** Where the CLI writes; tests pass their own. Kept in a leaf module: `main.ts` and every command name it. */
export interface CliIo {
  /** The report: one line per file created, skipped or planned. */
  out: (line: string) => void;
  /** Why a run failed. */
  err: (line: string) => void;
}
