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
 * beside the code and under test/, each file with a fresh module registry.
 */
export const packageTestProject = defineProject({
  ...sourceConditions,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/**
 * The same project with the files of one worker sharing their modules (`isolate: false`): each
 * worker imports the sources once, not once per file. For @panel/core, whose 97 small files
 * spent most of their time importing: measured 269 s against 147 s, the imports 103 s against
 * 9 s summed. No test mocks a module (the code's rules refuse `vi.mock`), and a test that
 * changes process-wide state restores it in `finally`. Two whole-suite runs with every project
 * so took 1,563 s and 1,543 s of vitest (other work beside them) against 926 s before on a quiet
 * machine: no gain shown, so the other projects keep their isolation (docs/decisions.md).
 */
export const sharedModulesTestProject = defineProject({
  ...sourceConditions,
  test: { ...packageTestProject.test, isolate: false },
});
