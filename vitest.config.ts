import { defineConfig } from 'vitest/config';

// PANEL_TEST_REPORT=<file> adds vitest's JSON report (CI's per-database summary reads it), so that
// CI runs the README's plain `npm test`.
const report = process.env.PANEL_TEST_REPORT;

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api', 'packages/api-tokens', 'packages/panel-ui', 'packages/cli', 'packages/create-app', 'examples/blog', 'examples/typed-client'],
    maxWorkers: 2,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
