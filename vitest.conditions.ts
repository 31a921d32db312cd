import { defineProject } from 'vitest/config';

/**
 * The export conditions the test runs resolve packages with: `@panel/source` first, so that
 * `@panel/core`, `@panel/api` and `@panel/api-cli` resolve to their TypeScript sources (no build
 * step in development), then Vite's defaults for Node (`module`, `node`, `development|production`).
 * Every package's vitest.config.ts spreads `sourceConditions` into its config.
 */
export const PANEL_SOURCE_CONDITIONS = ['@panel/source', 'module', 'node', 'development|production'];

/** The `resolve` and `ssr.resolve` settings that apply `PANEL_SOURCE_CONDITIONS`. */
export const sourceConditions = {
  resolve: { conditions: PANEL_SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: PANEL_SOURCE_CONDITIONS, externalConditions: ['@panel/source'] } },
};

/**
 * The vitest project every package and example shares: sources through `@panel/source`, tests
 * beside the code and under test/, the files of one worker sharing their modules
 * (`isolate: false`): each worker imports the sources, Fastify, Kysely and PGlite once, not once
 * per file. Measured project by project on a quiet machine, isolated against shared: the demo's
 * 64 files 346 s against 269 s, @panel/api 71 s against 36 s, @panel/panel-ui 37 s against
 * 19 s, @panel/api-tokens 19 s against 14 s, @panel/core 269 s against 147 s (an earlier
 * session). No test mocks a module (the code's rules refuse `vi.mock`), and a test that changes
 * process-wide state restores it in `finally` (docs/decisions.md#test-files-sharing-their-modules-ci-under-15-minutes).
 */
export const packageTestProject = defineProject({
  ...sourceConditions,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    isolate: false,
  },
});
