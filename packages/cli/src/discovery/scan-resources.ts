import { existsSync, readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { Project, SyntaxKind, type ClassDeclaration } from 'ts-morph';
import { isSourceModule, resourceNameFromClassName } from '@panel/core';
import { messages } from '../messages.js';

/** A resource found by reading its source, never by running it. */
export interface ScannedResource {
  readonly name: string;
  readonly className: string;
  /** The file, relative to the app root. */
  readonly file: string;
  readonly line: number;
  /** Why the resource cannot be read statically (a computed `static resourceName`), if it cannot. */
  readonly problem?: string;
}

/** The default resources folder, relative to the app root. */
export const RESOURCES_DIR = posix.join('app', 'panel', 'resources');

/**
 * A static property's string literal value: `undefined` when the class does not set it, `null`
 * when it sets it to something only running the file would tell (a variable, a getter).
 */
function staticString(cls: ClassDeclaration, property: string): string | null | undefined {
  const member = cls.getStaticMember(property);
  if (!member) return undefined;
  const declaration = member.asKind(SyntaxKind.PropertyDeclaration);
  if (!declaration) return null;
  const initializer = declaration.getInitializer();
  if (!initializer) return undefined;
  return initializer.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ?? initializer.asKind(SyntaxKind.NoSubstitutionTemplateLiteral)?.getLiteralValue() ?? null;
}

function extendsResource(cls: ClassDeclaration): boolean {
  const base = cls.getExtends()?.getExpression().getText();
  return base !== undefined && /(^|\.)\w*Resource$/.test(base);
}

/**
 * Reads `app/panel/resources/*.ts` with ts-morph and returns the exported classes that extend
 * `Resource`, with their resource names (the class name less `Resource`, or `static resourceName`),
 * sorted by name.
 */
export function scanResources(appRoot: string, resourcesDir = RESOURCES_DIR): ScannedResource[] {
  const dir = join(appRoot, resourcesDir);
  if (!existsSync(dir)) return [];
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } });
  const files = readdirSync(dir).filter(isSourceModule).sort().map((f) => project.addSourceFileAtPath(join(dir, f)));
  const found: ScannedResource[] = [];
  for (const source of files) {
    for (const cls of source.getClasses()) {
      if (!cls.isExported() || !extendsResource(cls) || cls.isAbstract()) continue;
      const className = cls.getName() ?? 'default';
      const declaredName = staticString(cls, 'resourceName');
      found.push({
        name: declaredName ?? resourceNameFromClassName(className),
        className,
        // Posix separators on every platform: the path is printed and written into generated code.
        file: relative(appRoot, source.getFilePath()).split(sep).join('/'),
        line: cls.getStartLineNumber(),
        ...(declaredName === null ? { problem: messages.unreadableResourceName() } : {}),
      });
    }
  }
  // Code-point order, not localeCompare: the output must not depend on the machine's locale.
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
