export { packageTestProject as default } from '../../vitest.conditions.js';
