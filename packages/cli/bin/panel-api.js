#!/usr/bin/env node
// The panel-api command. An installed package has no src/ (see "files"), so it runs the built
// dist/ with plain Node. In the monorepo it runs the TypeScript sources through tsx, with the
// `@panel/source` export condition so that @panel/core and @panel/api resolve to their sources
// too: no build step in development.
import { existsSync } from 'node:fs';
import { register as registerHooks } from 'node:module';

const sources = new URL('../src/main.ts', import.meta.url);
let main;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  // Registered after tsx, so it runs first: it adds the condition, then tsx and Node resolve.
  const hooks = 'export const resolve = (specifier, context, next) => next(specifier, { ...context, conditions: ["@panel/source", ...context.conditions] });';
  registerHooks(`data:text/javascript,${encodeURIComponent(hooks)}`);
  main = await import(sources.href);
} else {
  main = await import('../dist/main.js');
}
// `panel-api routes | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
process.exitCode = await main.runCli(process.argv.slice(2));
