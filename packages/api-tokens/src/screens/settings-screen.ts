import type { FastifyInstance } from 'fastify';
import { formList, setNotice } from '@panel/panel-ui';
import { DEFAULT_LIST_VERBS } from '../grants/grant-verbs.js';
import { GrantInvalidError } from '../errors/api-tokens-errors.js';
import { grantKeys, grantMatrix } from './grant-matrix.js';
import { guardScreen, seeOther, sendPage, type ScreenContext } from './token-screen-context.js';

const LEGEND = 'Default permissions: what the code-hook path may read';

/**
 * The default permissions screen, `<root_path>/panel_api/settings`: the resource × (index,
 * show) matrix only. A post naming any other verb or an unknown resource is refused (422, the
 * service's message) and changes nothing. Behind the gate and sudo mode.
 */
export function registerSettingsScreen(app: FastifyInstance, context: ScreenContext): void {
  const { paths, panel, tokens } = context;
  const page = { title: 'Default permissions', section: 'settings' as const };
  const model = (checked: string[], error?: string) => ({ settingsPath: paths.settings, matrix: grantMatrix(panel, checked, { legend: LEGEND, verbs: DEFAULT_LIST_VERBS, error }) });

  app.get(paths.settings, async (request, reply) => {
    const viewer = await guardScreen(context, request, reply, { sudo: true });
    if (!viewer) return reply;
    return sendPage(context, request, reply, viewer, 200, 'settings', page, model(grantKeys(await tokens.defaultPermissions())));
  });

  app.post(paths.settings, async (request, reply) => {
    const viewer = await guardScreen(context, request, reply, { write: true, sudo: true });
    if (!viewer) return reply;
    const checked = formList(request.body, 'grants[]');
    try {
      await tokens.setDefaultPermissions(checked);
    } catch (error) {
      if (!(error instanceof GrantInvalidError)) throw error;
      return sendPage(context, request, reply, viewer, 422, 'settings', page, model(grantKeys(await tokens.defaultPermissions()), error.message));
    }
    setNotice(reply, paths.root, 'Default permissions saved.');
    return seeOther(reply, paths.settings);
  });
}
