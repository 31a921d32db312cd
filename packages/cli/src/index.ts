export { runCli, type CliIo } from './main.js';
export { generateAction, planGenerator, inferLanguage, isValidVersion, type GenerateContext, type GenerateResult, type GeneratedFile, type GeneratorPlan } from './actions/generate-action.js';
export { checkAction, type CheckContext } from './actions/check-action.js';
export { routesAction, type RoutesContext, type PrintedRoute } from './actions/routes-action.js';
export { openApiAction, OPENAPI_OPTIONS_FILE, type OpenApiContext } from './actions/openapi-action.js';
export { loadAppConfig, AppConfigError, CONFIG_FILE, CONTROLLERS_DIR, RESOURCES_DIR, type AppConfig, type AppConfigFile, type Language } from './config/app-config.js';
export { scanResources, type ScannedResource, type ResourceScan } from './discovery/scan-resources.js';
export { scanControllers, type ScannedController, type ControllerScan } from './discovery/scan-controllers.js';
export type { SourceProblem } from './discovery/source-problem.js';
