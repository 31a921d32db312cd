import type { ActionName } from '../../controller/callback-chain.js';
import { callMethod } from '../call-method.js';
import type { Stage } from '../request-context.js';

/** The controller's action (`index`, `show`, `create`, `update`, `destroy`, `related`), which renders the answer. */
export function actionStage(action: ActionName): Stage {
  return { name: 'action', method: action, run: (context) => callMethod(context.controller, action) };
}
