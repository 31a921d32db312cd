import { join, resolve } from 'node:path';
import { normalizePanelConfig, type PanelConfig, type PanelConfigInput } from '../config/panel-config.js';
import { compileResources, type CompiledResource } from '../resources/compiled-resource.js';
import { fieldTypeRegistry, type FieldTypeRegistry } from '../fields/field-type-registry.js';
import type { FieldTypeModule } from '../resources/compiled-types.js';
import { loadResourceClasses } from '../resources/load-resources.js';
import type { ResourceClass } from '../resources/resource.js';
import type { PanelDatabase } from '../database/panel-database.js';
import { RecordsRepository } from '../records/records-repository.js';
import { PanelConfigError } from '../errors/panel-errors.js';
import type { AuthorizationClient, PanelPlugin } from '../authorization/authorization-client.js';
import { PanelSessions } from '../session/panel-sessions.js';
import { normalizeSessionOptions, type SessionOptionsInput } from '../session/session-options.js';
import type { StorageService } from '../storage/storage-service.js';
import { diskStorage } from '../storage/disk-storage.js';
import { PanelAttachments } from '../attachments/attachments-service.js';
import { checkAttachmentTables } from '../attachments/check-attachment-tables.js';
import { warnWhenStorageFolderEmpty } from '../attachments/check-storage-folder.js';
import { PanelUploads } from '../uploads/uploads-service.js';
import { normalizeUploadOptions, type UploadOptionsInput } from '../uploads/upload-options.js';

/** What `createPanel()` takes: the database, the resources (or where to find them) and the panel options. */
export interface CreatePanelOptions extends PanelConfigInput {
  database: PanelDatabase;
  /** Resource classes; when absent they are imported from `resourcesDir`. */
  resources?: readonly ResourceClass[];
  /** The app root; default `process.cwd()`. Resources are read from `<appRoot>/app/panel/resources` by default. */
  appRoot?: string;
  /** Where resource classes live when `resources` is not given; a relative path is taken from `appRoot`. */
  resourcesDir?: string;
  /** Plug-ins, such as `policyAuthorization()`. */
  plugins?: readonly PanelPlugin[];
  /**
   * Where attachment bytes live; default `diskStorage({ root: 'storage' })`: the `storage/`
   * folder of the current directory, the folder the app is started from. Not `appRoot`, which
   * becomes `dist/` once the app is compiled: files uploaded in development would vanish.
   */
  storage?: StorageService;
  /** The app's own field types (made with `defineFieldType`), beside the built-in ones. */
  fieldTypes?: readonly FieldTypeModule[];
  /** The panel session's lifetimes, cookie security, sign-in throttle and clock (needs `sessionSecret`). */
  session?: SessionOptionsInput;
  /** How long upload ids work, and where uploads are written while they arrive. */
  uploads?: UploadOptionsInput;
}

/** A running panel: its config, resources, database and records layer. Two panels in one process do not share state. */
export interface Panel {
  readonly config: PanelConfig;
  readonly appRoot: string;
  readonly database: PanelDatabase;
  readonly records: RecordsRepository;
  /** Files attached to records: `attach`, `detach`, the blobs, the storage service. */
  readonly attachments: PanelAttachments;
  /** Uploads waiting to be attached by a write: `receive`, `direct`, `describe`, `purge`. */
  readonly uploads: PanelUploads;
  readonly resources: ReadonlyMap<string, CompiledResource>;
  /** The field types this panel knows: the built-in ones and the app's own. */
  readonly fieldTypes: FieldTypeRegistry;
  /**
   * The authorization client in force, or null when policies do not apply (then queries are
   * unscoped and every action is allowed). It is in force only when all four hold: an
   * authorization plug-in is registered, the license enables `authorization`,
   * `authorizationClient` names that plug-in, and a `currentUserMethod` is configured.
   */
  readonly authorization: AuthorizationClient | null;
  /**
   * The panel's sessions (sealed cookie, revocation, sudo mode, sign-in throttle), or null when
   * no `sessionSecret` is configured (then every session is empty).
   */
  readonly sessions: PanelSessions | null;
  /** Why `authorization` is null, for diagnostics; undefined when it is in force. */
  readonly authorizationInactiveReason: string | undefined;
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
  const { database, resources, appRoot = process.cwd(), resourcesDir, plugins = [], storage, session, uploads: uploadOptions, fieldTypes: appFieldTypes, ...configInput } = options;
  if (!database || typeof database.db?.selectFrom !== 'function') {
    throw new PanelConfigError('createPanel: the database option is required. Fix: pass { database: await openDatabase({ url }) }.');
  }
  const config = normalizePanelConfig(configInput, ['database', 'resources', 'appRoot', 'resourcesDir', 'plugins', 'storage', 'session', 'uploads', 'fieldTypes']);
  const fieldTypes = fieldTypeRegistry(appFieldTypes);
  if (session !== undefined && config.sessionSecret === null) {
    throw new PanelConfigError('Panel config: session options are set but sessionSecret is missing. Fix: set sessionSecret to a secret of 32 characters or more (from your environment), or remove the session options.');
  }
  const sessionOptions = normalizeSessionOptions(session);
  if (config.sessionSecret !== null) await PanelSessions.checkTables(database);
  const classes = resources ?? (await loadResourceClasses(resolve(appRoot, resourcesDir ?? join('app', 'panel', 'resources'))));
  const compiled = compileResources(classes, fieldTypes);
  const { client, reason } = resolveAuthorization(config, plugins);
  if (storage !== undefined && (typeof storage?.upload !== 'function' || typeof storage.download !== 'function')) {
    throw new PanelConfigError('createPanel: storage must be a storage service such as diskStorage({ root }) or s3Storage({ … }).');
  }
  await checkAttachmentTables(database, compiled);
  const store = storage ?? diskStorage({ root: resolve(process.cwd(), 'storage') });
  await warnWhenStorageFolderEmpty(database, compiled, store);
  const attachments = new PanelAttachments({ db: database.db, resources: compiled, storage: store, rootPath: config.rootPath });
  const uploads = new PanelUploads({ db: database.db, storage: store, options: normalizeUploadOptions(uploadOptions), purgeBytes: (keys) => attachments.purge(keys) });
  return Object.freeze({
    authorization: client,
    authorizationInactiveReason: reason,
    sessions: config.sessionSecret === null ? null : new PanelSessions(database, config.sessionSecret, sessionOptions),
    config,
    appRoot,
    database,
    records: new RecordsRepository(database.db, compiled, { attachments, rootPath: config.rootPath, count: config.count, changes: database.changes, statements: database.statementCache !== false }),
    attachments,
    uploads,
    resources: compiled,
    fieldTypes,
    resource(name: string) {
      const resource = compiled.get(name);
      if (!resource) {
        throw new PanelConfigError(`No resource named "${name}". Known resources: ${[...compiled.keys()].join(', ') || 'none'}. Fix: check the name, or add app/panel/resources/<name>.ts.`);
      }
      return resource;
    },
  });
}

function resolveAuthorization(config: PanelConfig, plugins: readonly PanelPlugin[]): { client: AuthorizationClient | null; reason: string | undefined } {
  if (!Array.isArray(plugins) || plugins.some((p) => p?.kind !== 'authorization' || typeof p.client?.authorize !== 'function')) {
    throw new PanelConfigError('createPanel: plugins must be an array of panel plug-ins such as policyAuthorization().');
  }
  const registered = plugins.map((p) => p.client);
  if (registered.length === 0) return { client: null, reason: 'no authorization plug-in is registered (plugins: [policyAuthorization()])' };
  if (!config.license.features.includes('authorization')) return { client: null, reason: "the license does not enable the 'authorization' feature" };
  const client = registered.find((c) => c.identifier === config.authorizationClient);
  if (!client) return { client: null, reason: `authorizationClient is ${JSON.stringify(config.authorizationClient)}, not the identifier of a registered plug-in (${registered.map((c) => JSON.stringify(c.identifier)).join(', ')})` };
  if (config.currentUserMethod === null) return { client: null, reason: 'no currentUserMethod is configured' };
  return { client, reason: undefined };
}
