import { dirname, relative, resolve, sep } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { resolveRelative } from './base-class-resolver.js';

/** A relative import of a file that does not exist: the server would stop with `ERR_MODULE_NOT_FOUND`. */
export interface BrokenImport {
  readonly line: number;
  /** As written: `./base-resources-controller.js`. */
  readonly specifier: string;
  /** The file it names, relative to the app root, with `/` separators and without its extension. */
  readonly missing: string;
}

/** The relative imports and re-exports of a file that name no file (under any of `.ts .mts .js .mjs`). */
export function brokenImports(appRoot: string, source: SourceFile): BrokenImport[] {
  const declarations = [...source.getImportDeclarations(), ...source.getExportDeclarations()];
  const broken: BrokenImport[] = [];
  for (const declaration of declarations) {
    const specifier = declaration.getModuleSpecifierValue();
    if (specifier === undefined || !/^\.\.?\//.test(specifier)) continue;
    if (resolveRelative(source, specifier) !== undefined) continue;
    const missing = relative(appRoot, resolve(dirname(source.getFilePath()), specifier)).split(sep).join('/').replace(/\.m?[jt]s$/, '');
    broken.push({ line: declaration.getStartLineNumber(), specifier, missing });
  }
  return broken;
}
