/** The entry of `npm run bench:large` (the same as `npm run bench -- --large`). */
import { runLarge } from './run-large.js';

process.exitCode = await runLarge(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
