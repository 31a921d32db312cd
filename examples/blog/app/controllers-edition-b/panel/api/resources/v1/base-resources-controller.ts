// Edition B's catch-all and overrides extend the same BaseResourcesController as Edition A: its
// setupAuthentication (ApiKey and the panel session) is the code-hook path.
export { BaseResourcesController } from '../../../../../controllers/panel/api/resources/v1/base-resources-controller.js';
