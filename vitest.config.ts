import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api', 'packages/api-tokens', 'packages/panel-ui', 'packages/cli', 'examples/blog', 'examples/typed-client'],
    maxWorkers: 2,
  },
});
