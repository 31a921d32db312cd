/**
 * The API side of the equal-work endpoints: a plain app as the guide builds one (Fastify with
 * `panelServerOptions()`, `createPanel`, `mountPanelApi`), serving only the scalar resource
 * (`app/scalar/resources/bench-post.ts`) with the bench's key look-up, no policies and no
 * other resource, so that it does what the hand-written route does and no more.
 */
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { createPanel, openDatabase } from '@panel/core';
import { preparedStatementsOption } from '../servers/prepared-statements-option.js';
import { panelStatements } from '../servers/panel-statements.js';
import { mountPanelApi, panelServerOptions } from '@panel/api';
import { BenchPostResource } from '../../app/scalar/resources/bench-post.js';
import type { BenchServer, ServerSettings } from '../servers/server-types.js';

const CONTROLLERS = fileURLToPath(new URL('../../app/scalar/controllers', import.meta.url));

/** Builds the equal-work API for a bench child process, with the database's statement listener for the census. */
export async function scalarApiServer(settings: ServerSettings): Promise<BenchServer> {
  const database = await openDatabase({ url: settings.url, schema: settings.schema, ...preparedStatementsOption() });
  const panel = await createPanel({ database, resources: [BenchPostResource], appRoot: fileURLToPath(new URL('../..', import.meta.url)) });
  const app = Fastify(panelServerOptions({ logger: false }));
  // The limit is counted on every request (its cost is measured) but never reached by the load.
  await app.register(mountPanelApi, { panel, at: 'api', controllersDir: CONTROLLERS, rateLimit: { max: 1_000_000_000 } });
  app.addHook('onClose', () => database.close());
  return {
    app,
    onStatement: (listener) => panelStatements(database, listener),
    close: () => app.close(),
  };
}
