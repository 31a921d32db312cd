import { existsSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Project } from 'ts-morph';
import { isSourceModule } from '@panel/core';
import { CONTROLLERS_DIR } from '../config/app-config.js';
import { messages } from '../messages.js';
import { staticString } from './base-class-resolver.js';
import { scanProject } from './scan-resources.js';
import { parseProblem, type SourceProblem } from './source-problem.js';
import { brokenImports, type BrokenImport } from './broken-imports.js';
import { isBaseControllerFile } from '@panel/api';

/** The stem of the base controller's file name in each version folder: the runtime's. */
export { BASE_CONTROLLER_STEM } from '@panel/api';

/** A controller found by reading its source: an exported class with its own `static resourceName`. */
export interface ScannedController {
  readonly version: string;
  readonly className: string;
  readonly resourceName: string;
  /** The file, relative to the app root, with `/` separators. */
  readonly file: string;
  readonly line: number;
}

/** What reading the controllers folder found. */
export interface ControllerScan {
  /** The version folders, sorted. */
  readonly versions: readonly string[];
  readonly controllers: readonly ScannedController[];
  /** The base controller file of each version that has one. */
  readonly baseFiles: ReadonlyMap<string, string>;
  readonly problems: readonly SourceProblem[];
  /** Relative imports of files that do not exist (a deleted base controller), by version and file. */
  readonly brokenImports: readonly (BrokenImport & { readonly version: string; readonly file: string })[];
}

/**
 * Reads `app/controllers/panel/api/resources/<version>/*` with ts-morph, as the runtime's
 * discovery would import it, without running it: a controller is an exported class with its own
 * `static resourceName`; the base controller has none and serves nothing. Only `versions` are
 * read when given.
 */
export function scanControllers(appRoot: string, controllersDir = CONTROLLERS_DIR, versions?: readonly string[], project: Project = scanProject()): ControllerScan {
  const root = join(appRoot, controllersDir);
  const present = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
  const read = versions ? present.filter((v) => versions.includes(v)) : present;
  const controllers: ScannedController[] = [];
  const baseFiles = new Map<string, string>();
  const problems: SourceProblem[] = [];
  const broken: (BrokenImport & { version: string; file: string })[] = [];
  for (const version of read) {
    const names = readdirSync(join(root, version), { withFileTypes: true }).filter((e) => e.isFile() && isSourceModule(e.name)).map((e) => e.name).sort();
    for (const name of names) {
      const file = posix.join(controllersDir, version, name);
      if (isBaseControllerFile(name)) baseFiles.set(version, file);
      const source = project.addSourceFileAtPath(join(root, version, name));
      const parse = parseProblem(source, file);
      if (parse) {
        problems.push(parse);
        continue;
      }
      for (const found of brokenImports(appRoot, source)) broken.push({ ...found, version, file });
      for (const cls of source.getClasses()) {
        if (!cls.isExported()) continue;
        const resourceName = staticString(cls, 'resourceName');
        if (resourceName === undefined) continue;
        const line = cls.getStartLineNumber();
        if (resourceName === null) problems.push({ file, line, message: messages.unreadableResourceName() });
        else controllers.push({ version, className: cls.getName() ?? 'default', resourceName, file, line });
      }
    }
  }
  return { versions: read, controllers, baseFiles, problems, brokenImports: broken };
}
