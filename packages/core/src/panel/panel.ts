import { join } from 'node:path';
import { normalizePanelConfig, type PanelConfig, type PanelConfigInput } from '../config/panel-config.js';
import { compileResources, type CompiledResource } from '../resources/compiled-resource.js';
import { loadResourceClasses } from '../resources/load-resources.js';
import type { ResourceClass } from '../resources/resource.js';
import type { PanelDatabase } from '../database/panel-database.js';
import { RecordsRepository } from '../records/records-repository.js';
import { PanelConfigError } from '../errors/panel-errors.js';

/** What `createPanel()` takes: the database, the resources (or where to find them) and the panel options. */
export interface CreatePanelOptions extends PanelConfigInput {
  database: PanelDatabase;
  /** Resource classes; when absent they are imported from `resourcesDir`. */
  resources?: readonly ResourceClass[];
  /** The app root; default `process.cwd()`. Resources are read from `<appRoot>/app/panel/resources` by default. */
  appRoot?: string;
  /** Where resource classes live when `resources` is not given. */
  resourcesDir?: string;
}

/** A running panel: its config, resources, database and records layer. Two panels in one process do not share state. */
export interface Panel {
  readonly config: PanelConfig;
  readonly appRoot: string;
  readonly database: PanelDatabase;
  readonly records: RecordsRepository;
  readonly resources: ReadonlyMap<string, CompiledResource>;
  /** The resource with that name (`BlogPost`), or a `PanelConfigError` naming the known ones. */
  resource(name: string): CompiledResource;
}

/**
 * Creates a panel: validates the options, loads and compiles the resources. Every mistake
 * fails here, at startup, with a message naming the option and the fix.
 *
 * @example
 * const panel = await createPanel({ database: await openDatabase(), perPage: 24 });
 */
export async function createPanel(options: CreatePanelOptions): Promise<Panel> {
  const { database, resources, appRoot = process.cwd(), resourcesDir, ...configInput } = options;
  if (!database || typeof database.db?.selectFrom !== 'function') {
    throw new PanelConfigError('createPanel: the database option is required. Fix: pass { database: await openDatabase({ url }) }.');
  }
  const config = normalizePanelConfig(configInput);
  const classes = resources ?? (await loadResourceClasses(resourcesDir ?? join(appRoot, 'app', 'panel', 'resources')));
  const compiled = compileResources(classes);
  return Object.freeze({
    config,
    appRoot,
    database,
    records: new RecordsRepository(database.db, compiled),
    resources: compiled,
    resource(name: string) {
      const resource = compiled.get(name);
      if (!resource) {
        throw new PanelConfigError(`No resource named "${name}". Known resources: ${[...compiled.keys()].join(', ') || 'none'}. Fix: check the name, or add app/panel/resources/<name>.ts.`);
      }
      return resource;
    },
  });
}
