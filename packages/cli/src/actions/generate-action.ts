import { posix, resolve } from 'node:path';
import { resourceNaming } from '@panel/core';
import { renderTemplate } from '../templates/render-template.js';
import { FileTree } from '../tree/file-tree.js';
import { messages } from '../messages.js';
import { RESOURCES_DIR, scanResources, type ScannedResource } from '../discovery/scan-resources.js';

/** The folder of generated controllers, relative to the app root. */
export const CONTROLLERS_DIR = posix.join('app', 'controllers', 'panel', 'api', 'resources');

/** What a generator run was asked for. */
export interface GenerateContext {
  readonly appRoot: string;
  readonly version: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  /** Resource names to generate; all resources when undefined. */
  readonly only?: readonly string[];
  /** Whether to write the `BaseResourcesController` after the controllers. */
  readonly withBase: boolean;
  /** Prints a line of the report (standard output). */
  readonly print: (line: string) => void;
  /** Prints why the run failed (standard error). */
  readonly printError: (line: string) => void;
}

/** What a run did: the files it planned (written unless skipped or a dry run) and its exit code. */
export interface GenerateResult {
  readonly exitCode: number;
  readonly planned: readonly { path: string; written: boolean }[];
}

const BASE_FILE = 'base-resources-controller.ts';

function plan(tree: FileTree, context: GenerateContext, label: string, path: string, render: () => string): { path: string; written: boolean } {
  const exists = tree.exists(path);
  if (exists && !context.force) {
    context.print(messages.skipped(label, path));
    return { path, written: false };
  }
  tree.write(path, render());
  const line = context.dryRun ? (exists ? messages.wouldOverwrite : messages.wouldCreate) : exists ? messages.overwritten : messages.created;
  context.print(line(label, path));
  return { path, written: true };
}

/**
 * The first reason the resources cannot be generated: one whose name only running it would
 * tell, or two that would share a controller file (the second would be skipped, or with
 * `--force` overwrite the first).
 */
function conflict(resources: readonly ScannedResource[]): string | undefined {
  const unreadable = resources.find((r) => r.problem !== undefined);
  if (unreadable) return messages.unreadable(unreadable.file, unreadable.line, unreadable.problem!);
  const byFile = new Map<string, ScannedResource>();
  for (const resource of resources) {
    const naming = resourceNaming(resource.name);
    const first = byFile.get(naming.controllerFile);
    if (first) return messages.sameController(naming.controllerName, `${first.file}:${first.line}`, `${resource.file}:${resource.line}`);
    byFile.set(naming.controllerFile, resource);
  }
  return undefined;
}

/**
 * Renders one controller per resource (and then the base controller) on an in-memory tree,
 * skips files that exist unless forced, and writes once at the end (never on a dry run).
 */
export async function generateAction(context: GenerateContext): Promise<GenerateResult> {
  if (!/^[a-z][\w-]*$/i.test(context.version)) {
    context.printError(messages.invalidVersion(context.version));
    return { exitCode: 2, planned: [] };
  }
  const resources = scanResources(context.appRoot);
  if (resources.length === 0) {
    context.printError(messages.noResources(resolve(context.appRoot, RESOURCES_DIR)));
    return { exitCode: 1, planned: [] };
  }
  let selected: ScannedResource[] = resources;
  if (context.only) {
    const missing = context.only.filter((name) => !resources.some((r) => r.name === name || r.className === name));
    if (missing.length > 0) {
      context.printError(messages.unknownResource(missing[0]!, resources.map((r) => r.name)));
      return { exitCode: 1, planned: [] };
    }
    selected = resources.filter((r) => context.only!.includes(r.name) || context.only!.includes(r.className));
  }
  const problem = conflict(selected);
  if (problem) {
    context.printError(problem);
    return { exitCode: 1, planned: [] };
  }
  const tree = new FileTree(context.appRoot);
  const dir = posix.join(CONTROLLERS_DIR, context.version);
  const planned = selected.map((resource) => {
    const naming = resourceNaming(resource.name);
    return plan(tree, context, naming.controllerName, posix.join(dir, `${naming.controllerFile}.ts`), () =>
      renderTemplate('controller.ts.hbs', { ...naming, version: context.version, resourceFile: resource.file }),
    );
  });
  const basePath = posix.join(dir, BASE_FILE);
  if (context.withBase) {
    planned.push(plan(tree, context, 'BaseResourcesController', basePath, () => renderTemplate('base-resources-controller.ts.hbs', { version: context.version })));
  } else if (!tree.exists(basePath)) {
    context.print(messages.missingBase(basePath, context.version));
  }
  if (context.dryRun) context.print(messages.dryRun());
  else await tree.commit();
  return { exitCode: 0, planned };
}
