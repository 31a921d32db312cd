import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.conditions.js';

export default defineProject({
  ...sourceConditions,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
