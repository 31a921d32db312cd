import { posix } from 'node:path';
import { resourceNaming } from '@panel/core';
import { RESOURCES_DIR } from '../config/app-config.js';
import { FileTree } from '../tree/file-tree.js';
import { messages } from '../messages.js';
import { planGenerator, prepareRun, type GenerateContext } from './generate-action.js';
import { BASE_CONTROLLER_STEM } from '../discovery/scan-controllers.js';
import { fieldProblems } from '../discovery/field-problems.js';
import { problemLine } from '../discovery/source-problem.js';

/** A check run: a generator context (nothing is written) and which versions to check. */
export interface CheckContext extends GenerateContext {
  /** Check every version folder that exists (or `version` when there is none), instead of `version` alone. */
  readonly allVersions: boolean;
}

/** The command that fixes missing files, as the user typed it (without the flags that do not matter). */
function fixCommand(context: CheckContext, version: string): string {
  const command = context.only ? `controller ${context.only[0]}` : context.withBase ? 'generate' : 'controllers';
  return `panel-api ${command}${version === 'v1' ? '' : ` --version ${version}`}`;
}

/**
 * `--check`: writes nothing; exits 1 listing every problem when a resource has no controller
 * (by the runtime's rule: no controller of the version serves it), the base controller is
 * missing (`generate` only), a controller serves a resource that no longer exists, or two
 * controllers serve one resource, a controller imports a file that does not exist (its base
 * controller, deleted or never generated), or a resource declares what `createPanel` refuses
 * (a field name twice, an association to an unknown resource); exits 0 with one line otherwise. Controllers are the app's to
 * edit, so their contents are never compared with the templates.
 */
export async function checkAction(context: CheckContext): Promise<number> {
  const first = prepareRun(context, context.allVersions ? 'all' : [context.version]);
  if ('exitCode' in first) return first.exitCode;
  const versions = context.allVersions && first.scan.controllers.versions.length > 0 ? first.scan.controllers.versions : [context.version];
  const known = new Set(first.scan.resources.resources.map((r) => r.name));
  const resourcesDir = context.resourcesDir ?? RESOURCES_DIR;
  const problems: string[] = [];
  const fixes = new Set<string>();
  const tree = new FileTree(context.appRoot);
  for (const version of versions) {
    const plan = planGenerator({ ...context, version }, first.resources, first.scan, tree);
    for (const file of plan.files) {
      if (file.existing !== undefined) continue;
      const resource = first.resources.find((r) => resourceNaming(r.name).controllerName === file.label);
      const path = `${file.stem}.${plan.language}`;
      problems.push(resource ? messages.missingController(file.label, path, resource.name, `${resource.file}:${resource.line}`) : messages.missingBaseController(path));
      fixes.add(messages.fixMissing(fixCommand(context, version)));
    }
    const seen = new Map<string, string>();
    for (const controller of first.scan.controllers.controllers.filter((c) => c.version === version)) {
      const at = `${controller.file}:${controller.line}`;
      if (!known.has(controller.resourceName)) {
        problems.push(messages.orphanedController(controller.className, at, controller.resourceName, resourcesDir));
        fixes.add(messages.fixOrphaned());
      }
      const previous = seen.get(controller.resourceName);
      if (previous) {
        problems.push(messages.duplicateController(version, controller.resourceName, previous, at));
        fixes.add(messages.fixDuplicate());
      }
      seen.set(controller.resourceName, at);
    }
  }
  // A missing base controller is reported above as missing (generate) or is not asked for
  // (controllers, controller); any other relative import that names no file stops the boot.
  for (const broken of first.scan.controllers.brokenImports.filter((b) => versions.includes(b.version))) {
    if (posix.basename(broken.missing) === BASE_CONTROLLER_STEM && posix.dirname(broken.missing) === posix.dirname(broken.file)) continue;
    problems.push(problemLine({ file: broken.file, line: broken.line, message: messages.brokenImport(broken.specifier, broken.missing) }));
    fixes.add(messages.fixSource());
  }
  // What createPanel would refuse at boot, when the source says it plainly (a mistyped belongsTo
  // target). An association to a resource that was deleted is the orphaned controller's line.
  const orphaned = new Set(first.scan.controllers.controllers.filter((c) => !known.has(c.resourceName)).map((c) => c.resourceName));
  for (const problem of fieldProblems(first.scan.resources.resources, orphaned)) {
    problems.push(problemLine(problem));
    fixes.add(messages.fixSource());
  }
  if (problems.length > 0) {
    for (const problem of problems) context.printError(problem);
    context.printError(messages.checkFailed(problems.length, [...fixes]));
    return 1;
  }
  const controllers = first.scan.controllers.controllers.filter((c) => versions.includes(c.version)).length;
  context.print(messages.checkPassed(known.size, controllers, versions));
  return 0;
}
