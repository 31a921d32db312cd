import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { IndentationText, Project, QuoteKind, type SourceFile } from 'ts-morph';
import type { Language } from '../config/app-config.js';
import { addConfigurationBlock } from '../install/initializer-edit.js';
import { API_TOKENS_MIGRATION_SUFFIX, DIGEST_INDEX_MIGRATION_SUFFIX, isApiTokensMigration, nextMigrationName } from '../install/migration-name.js';
import { registerMigration } from '../install/migrations-registry-edit.js';
import { renderTemplate } from '../templates/render-template.js';
import { FileTree } from '../tree/file-tree.js';
import { messages } from '../messages.js';

/** Where the migrations folder is, relative to the app root, unless `--migrations` says otherwise. */
export const DEFAULT_MIGRATIONS_DIR = 'db/migrations';

/** What `panel-api install` was asked for. */
export interface InstallContext {
  readonly appRoot: string;
  /** The migrations folder relative to the app root. */
  readonly migrationsDir: string;
  /** The panel initializer relative to the app root; default `app/panel/initializer.<language>`. */
  readonly initializer?: string | undefined;
  readonly language: Language;
  readonly dryRun: boolean;
  /** The clock that names a timestamped migration. */
  readonly now: Date;
  readonly print: (line: string) => void;
  readonly printError: (line: string) => void;
}

/** A ts-morph project that edits in the style of the generated files: two spaces, single quotes. */
function editingProject(): Project {
  return new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    useInMemoryFileSystem: true,
    compilerOptions: { allowJs: true },
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single, useTrailingCommas: true },
  });
}

function editSource(tree: FileTree, appRoot: string, path: string, edit: (source: SourceFile) => boolean): void {
  const absolute = join(appRoot, path);
  const text = existsSync(absolute) ? readFileSync(absolute, 'utf8') : '';
  const source = editingProject().createSourceFile(absolute, text, { overwrite: true });
  if (edit(source)) tree.write(path, source.getFullText().replace(/^\n+/, ''));
}

/** Writes the next migration from a template and registers it in `db/migrations.<language>` when the app keeps one. */
function writeMigration(tree: FileTree, context: InstallContext, present: readonly string[], suffix: string, template: string, alias: string): void {
  const { appRoot, language, print } = context;
  const name = nextMigrationName(present.filter((file) => /\.m?[jt]s$/.test(file)), context.now, suffix);
  tree.write(posix.join(context.migrationsDir, `${name}.${language}`), renderTemplate(`${template}.${language}.hbs`, {}));
  const registry = `${context.migrationsDir}.${language}`;
  if (existsSync(join(appRoot, registry))) {
    let outcome = 'present';
    editSource(tree, appRoot, registry, (source) => {
      outcome = registerMigration(source, name, `./${posix.basename(context.migrationsDir)}/${name}.js`, alias).kind;
      return outcome === 'added';
    });
    if (outcome === 'unrecognized') print(messages.installRegisterByHand(registry, name));
  } else {
    print(messages.installNoRegistry(registry, name));
  }
}

/**
 * `panel-api install` (spec "Setup, Edition B"): writes the migration that creates
 * `panel_api_tokens` and `panel_api_permission_grants` with the token digest index (registered
 * in `db/migrations.ts` when the app keeps its migrations there; an app installed before the
 * index gets a second migration that adds it), and adds the `configurePanelApi` block — the
 * `manageTokensIf` gate, denying by default, and the pepper instructions — to the panel
 * initializer by editing it with ts-morph. Idempotent: a second run changes nothing.
 */
export async function installAction(context: InstallContext): Promise<number> {
  const { appRoot, language, print } = context;
  const tree = new FileTree(appRoot);
  const migrationsFolder = join(appRoot, context.migrationsDir);
  const present = existsSync(migrationsFolder) ? readdirSync(migrationsFolder) : [];
  const installed = present.find((file) => isApiTokensMigration(file));
  if (installed) {
    print(messages.installPresent('Migration', posix.join(context.migrationsDir, installed)));
    // An install from before the digest index (its migration calls only apiTokensSchemaV1) gets
    // the index as a migration of its own: a migration that already ran never changes.
    const indexed = present.find((file) => isApiTokensMigration(file, DIGEST_INDEX_MIGRATION_SUFFIX));
    if (indexed) print(messages.installPresent('Migration', posix.join(context.migrationsDir, indexed)));
    else if (!readFileSync(join(migrationsFolder, installed), 'utf8').includes('apiTokensSchemaV2')) {
      writeMigration(tree, context, present, DIGEST_INDEX_MIGRATION_SUFFIX, 'api-tokens-digest-index-migration', 'indexPanelApiTokenDigests');
    }
  } else {
    writeMigration(tree, context, present, API_TOKENS_MIGRATION_SUFFIX, 'api-tokens-migration', 'createPanelApiTokens');
  }
  const initializer = context.initializer ?? `app/panel/initializer.${language}`;
  let conflictLine: number | undefined;
  editSource(tree, appRoot, initializer, (source) => {
    const edit = addConfigurationBlock(source);
    if (edit.kind === 'conflict') conflictLine = edit.line;
    else if (edit.kind === 'present') print(messages.installPresent('Panel API configuration', initializer));
    return edit.kind === 'added';
  });
  if (conflictLine !== undefined) {
    context.printError(messages.installNameTaken(initializer, conflictLine));
    return 1;
  }
  for (const file of tree.planned) print(context.dryRun ? messages.installWould(file.path, file.overwrite) : messages.installWrote(file.path, file.overwrite));
  if (context.dryRun) {
    print(messages.dryRun());
    return 0;
  }
  await tree.commit();
  if (tree.planned.length > 0) for (const line of messages.installNextSteps()) print(line);
  return 0;
}
