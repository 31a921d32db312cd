export { sharedModulesTestProject as default } from '../../vitest.conditions.js';
