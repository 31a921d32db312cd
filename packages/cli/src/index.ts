export { runCli, type CliIo } from './main.js';
export { generateAction, CONTROLLERS_DIR, type GenerateContext, type GenerateResult } from './actions/generate-action.js';
export { scanResources, RESOURCES_DIR, type ScannedResource } from './discovery/scan-resources.js';
