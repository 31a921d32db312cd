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
 * beside the code and under test/. The files of one worker share their modules (`isolate:
 * false`): each worker imports the sources once, not once per file. No test mocks a module
 * (`vi.mock`), and a test that changes process-wide state (an environment variable, a console
 * spy) restores it in `finally`; a new one must too. Measured on @panel/core: 269 s against
 * 147 s for its 97 files, the imports 103 s against 9 s summed (docs/decisions.md).
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

