import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Project, SyntaxKind, type ClassDeclaration } from 'ts-morph';
import { isSourceModule, resourceNameFromClassName } from '@panel/core';

/** A resource found by reading its source, never by running it. */
export interface ScannedResource {
  readonly name: string;
  readonly className: string;
  /** The file, relative to the app root. */
  readonly file: string;
  readonly line: number;
}

/** The default resources folder, relative to the app root. */
export const RESOURCES_DIR = join('app', 'panel', 'resources');

function staticString(cls: ClassDeclaration, property: string): string | undefined {
  const initializer = cls.getStaticProperty(property)?.asKind(SyntaxKind.PropertyDeclaration)?.getInitializer();
  return initializer?.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ?? initializer?.asKind(SyntaxKind.NoSubstitutionTemplateLiteral)?.getLiteralValue();
}

function extendsResource(cls: ClassDeclaration): boolean {
  const base = cls.getExtends()?.getExpression().getText();
  return base !== undefined && /(^|\.)\w*Resource$/.test(base);
}

/**
 * Reads `app/panel/resources/*.ts` with ts-morph and returns the exported classes that extend
 * `Resource`, with their resource names (the class name less `Resource`, or `static resourceName`).
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
      found.push({
        name: staticString(cls, 'resourceName') ?? resourceNameFromClassName(className),
        className,
        file: relative(appRoot, source.getFilePath()),
        line: cls.getStartLineNumber(),
      });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}
