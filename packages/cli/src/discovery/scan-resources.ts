import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Node, Project, type ClassDeclaration, type SourceFile } from 'ts-morph';
import { isSourceModule, resourceNameFromClassName } from '@panel/core';
import { RESOURCES_DIR } from '../config/app-config.js';
import { messages } from '../messages.js';
import { BaseClassResolver, staticString } from './base-class-resolver.js';
import { parseProblem, type SourceProblem } from './source-problem.js';
import { scanFields, type ScannedField } from './scan-fields.js';

/** A resource found by reading its source, never by running it. */
export interface ScannedResource {
  readonly name: string;
  readonly className: string;
  /** The file, relative to the app root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  /** The fields its own `fields()` declares, as far as they can be read statically (see `scanFields`). */
  readonly fields?: readonly ScannedField[] | undefined;
  /** Its own `static table` when a string literal (undefined otherwise: the default, the route key, or unreadable). */
  readonly table?: string | undefined;
}

/** What reading a resources folder found: the resources in name order, and what it could not understand. */
export interface ResourceScan {
  /** Absolute path of the folder read. */
  readonly dir: string;
  readonly resources: readonly ScannedResource[];
  /** Files or classes panel-api cannot read statically, each by file and line; generating stops on any. */
  readonly problems: readonly SourceProblem[];
  /** The resource files, relative to the app root (every source module of the folder, resource or not). */
  readonly files: readonly string[];
}

/** A `/`-separated path relative to the app root: it is printed and written into generated code. */
export function appPath(appRoot: string, absolute: string): string {
  return relative(appRoot, absolute).split(sep).join('/');
}

/** Creates the ts-morph project the scanners share: no tsconfig, no dependency resolution, JavaScript allowed. */
export function scanProject(): Project {
  return new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } });
}

/** Whether a class that panel-api cannot follow looks like a resource, so that skipping it would hide a mistake. */
function looksLikeResource(cls: ClassDeclaration, baseName: string): boolean {
  return cls.getInstanceMethod('fields') !== undefined || /Resource$/.test(cls.getName() ?? '') || /Resource$/.test(baseName);
}

function scanFile(appRoot: string, source: SourceFile, resolver: BaseClassResolver, found: ScannedResource[], problems: SourceProblem[]): void {
  const file = appPath(appRoot, source.getFilePath());
  const parse = parseProblem(source, file);
  if (parse) {
    problems.push(parse);
    return;
  }
  for (const cls of source.getClasses()) {
    if (!cls.isExported()) continue;
    const line = cls.getStartLineNumber();
    const heritage = resolver.heritage(cls);
    if (heritage.kind === 'unknown') {
      if (looksLikeResource(cls, heritage.baseName)) problems.push({ file, line, message: messages.unknownHeritage(cls.getName() ?? 'the default export', heritage.reason) });
      continue;
    }
    if (heritage.kind === 'other' || cls.isAbstract()) continue;
    const own = staticString(cls, 'resourceName');
    const declared = own === undefined ? heritage.inheritedName : own;
    if (declared === null) {
      problems.push({ file, line, message: messages.unreadableResourceName() });
      continue;
    }
    const className = cls.getName();
    if (className === undefined && declared === undefined) {
      problems.push({ file, line, message: messages.anonymousResource() });
      continue;
    }
    const table = staticString(cls, 'table') ?? undefined;
    found.push({ name: declared ?? resourceNameFromClassName(className!), className: className ?? 'default', file, line, fields: scanFields(cls), table });
  }
  for (const { name, line } of valueExports(source)) problems.push({ file, line, message: messages.resourceAsValue(name) });
}

/**
 * Exported values that may be resource classes made by an expression (`export const
 * UserResource = class extends Resource {}`, `export default defineResource(…)`): the server
 * would import them, but only running the file would tell what they are.
 */
function valueExports(source: SourceFile): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  for (const statement of source.getVariableStatements()) {
    if (!statement.isExported()) continue;
    for (const declaration of statement.getDeclarations()) {
      const initializer = declaration.getInitializer();
      if (Node.isClassExpression(initializer) || /Resource$/.test(declaration.getName())) found.push({ name: declaration.getName(), line: declaration.getStartLineNumber() });
    }
  }
  const assignment = source.getExportAssignment((a) => !a.isExportEquals());
  const expression = assignment?.getExpression();
  if (expression && !Node.isIdentifier(expression) && (Node.isClassExpression(expression) || /\bResource\b/.test(expression.getText()))) {
    found.push({ name: 'the default export', line: assignment!.getStartLineNumber() });
  }
  return found;
}

/**
 * Reads the resources folder (`app/panel/resources/*`, not its sub-folders) with ts-morph and
 * returns the exported, non-abstract classes that extend `Resource` from `@panel/core`,
 * directly or through other classes (followed through relative imports), with their resource
 * names (`static resourceName`, its own or inherited, else the class name less `Resource`),
 * sorted by name. It never runs the files; what it cannot read is returned as a problem.
 */
export function scanResources(appRoot: string, resourcesDir = RESOURCES_DIR, project: Project = scanProject()): ResourceScan {
  const dir = join(appRoot, resourcesDir);
  if (!existsSync(dir)) return { dir, resources: [], problems: [], files: [] };
  const names = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && isSourceModule(e.name)).map((e) => e.name).sort();
  const sources = names.map((name) => project.addSourceFileAtPath(join(dir, name)));
  const resolver = new BaseClassResolver(project);
  const found: ScannedResource[] = [];
  const problems: SourceProblem[] = [];
  for (const source of sources) scanFile(appRoot, source, resolver, found, problems);
  // Code-point order, not localeCompare: the output must not depend on the machine's locale.
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { dir, resources: found, problems, files: sources.map((s) => appPath(appRoot, s.getFilePath())) };
}
