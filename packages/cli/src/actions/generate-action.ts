import { existsSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { resourceNameProblem, resourceNaming } from '@panel/core';
import { CONTROLLERS_DIR, RESOURCES_DIR, type Language } from '../config/app-config.js';
import { renderTemplate } from '../templates/render-template.js';
import { FileTree } from '../tree/file-tree.js';
import { messages } from '../messages.js';
import { scanProject, scanResources, type ResourceScan, type ScannedResource } from '../discovery/scan-resources.js';
import { BASE_CONTROLLER_STEM, scanControllers, type ControllerScan } from '../discovery/scan-controllers.js';
import { problemLine } from '../discovery/source-problem.js';
import { findNearbyAppRoot } from '../discovery/find-app-root.js';

/** What a generator run was asked for. */
export interface GenerateContext {
  /** The app root (absolute, or relative to the current directory). */
  readonly appRoot: string;
  /** The resources folder relative to the app root; default `app/panel/resources`. */
  readonly resourcesDir?: string;
  /** The controllers folder relative to the app root; default `app/controllers/panel/api/resources`. */
  readonly controllersDir?: string;
  /** The language of new files; by default `js` when every resource file is JavaScript, else `ts`. */
  readonly language?: Language | undefined;
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

/** A file the generator owns: its label in the report, where it goes, and the file that exists already, if any. */
export interface GeneratedFile {
  readonly label: string;
  /** Where the file is written when it does not exist: `<stem>.<language>`. */
  readonly stem: string;
  /** The existing file that stands for it (any module extension; for a controller, any file serving its resource). */
  readonly existing: string | undefined;
  readonly template: 'controller' | 'base-resources-controller';
  readonly data: Record<string, unknown>;
}

/** The resources and controllers of an app, read statically, and the files `generate` owns there. */
export interface GeneratorPlan {
  readonly resources: ResourceScan;
  readonly controllers: ControllerScan;
  readonly language: Language;
  /** The files for the selected resources, in resource-name order, and then the base controller when asked for. */
  readonly files: readonly GeneratedFile[];
  /** The base controller's stem and existing file, also when it is not among `files`. */
  readonly base: { readonly stem: string; readonly existing: string | undefined };
}

const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/** A version must be one plain path segment: it becomes a folder and a URL segment. */
export function isValidVersion(version: string): boolean {
  return /^[a-z][\w-]*$/i.test(version);
}

/** The language generated files are written in when no flag or config names one: the resources'. */
export function inferLanguage(scan: ResourceScan): Language {
  return scan.files.length > 0 && scan.files.every((file) => /\.m?js$/.test(file)) ? 'js' : 'ts';
}

function existingModule(tree: FileTree, stem: string): string | undefined {
  return MODULE_EXTENSIONS.map((ext) => `${stem}${ext}`).find((path) => tree.exists(path));
}

/**
 * The first reason the resources cannot be generated: a name that is not a resource name, a
 * resource whose controller would be the base controller, or two resources that would share a
 * controller file (the second would be skipped, or with `--force` overwrite the first).
 */
function conflicts(resources: readonly ScannedResource[], basePath: string): string | undefined {
  const byFile = new Map<string, ScannedResource>();
  for (const resource of resources) {
    // Paths and class names are built from the name: '../../../evil' or '' would leave the version folder or not compile.
    const nameProblem = resourceNameProblem(resource.name);
    if (nameProblem) return problemLine({ file: resource.file, line: resource.line, message: nameProblem });
    const naming = resourceNaming(resource.name);
    // The base controller's file is not a resource's: writing it would lose one or the other.
    if (naming.controllerFile === BASE_CONTROLLER_STEM || naming.controllerName === 'BaseResourcesController') {
      return messages.baseControllerName(`${resource.file}:${resource.line}`, resource.name, basePath);
    }
    const first = byFile.get(naming.controllerFile);
    if (first) return messages.sameController(naming.controllerName, `${first.file}:${first.line}`, `${resource.file}:${resource.line}`);
    byFile.set(naming.controllerFile, resource);
  }
  return undefined;
}

/**
 * Reads the app and works out the files `generate` owns in one version: a controller per
 * selected resource and the base controller. A controller exists when a file at its path does
 * (any of `.ts .mts .js .mjs`), or when any controller of the version serves its resource.
 */
export function planGenerator(context: Pick<GenerateContext, 'appRoot' | 'resourcesDir' | 'controllersDir' | 'language' | 'version' | 'withBase'>, resources: readonly ScannedResource[], scan: { resources: ResourceScan; controllers: ControllerScan }, tree: FileTree): GeneratorPlan {
  const language = context.language ?? inferLanguage(scan.resources);
  const dir = posix.join(context.controllersDir ?? CONTROLLERS_DIR, context.version);
  const served = new Map(scan.controllers.controllers.filter((c) => c.version === context.version).map((c) => [c.resourceName, c.file]));
  const files: GeneratedFile[] = resources.map((resource) => {
    const naming = resourceNaming(resource.name);
    const stem = posix.join(dir, naming.controllerFile);
    return {
      label: naming.controllerName,
      stem,
      existing: served.get(resource.name) ?? existingModule(tree, stem),
      template: 'controller',
      data: { ...naming, version: context.version, resourceFile: resource.file },
    };
  });
  const baseStem = posix.join(dir, BASE_CONTROLLER_STEM);
  const base = { stem: baseStem, existing: existingModule(tree, baseStem) };
  if (context.withBase) files.push({ label: 'BaseResourcesController', ...base, template: 'base-resources-controller', data: { version: context.version } });
  return { resources: scan.resources, controllers: scan.controllers, language, files, base };
}

/** The language of an existing file, from its extension. */
function languageOf(path: string): Language {
  return /\.m?js$/.test(path) ? 'js' : 'ts';
}

function planWrite(tree: FileTree, context: GenerateContext, language: Language, file: GeneratedFile): { path: string; written: boolean } {
  if (file.existing !== undefined && !context.force) {
    context.print(file.template === 'base-resources-controller' ? messages.skippedBase(file.existing) : messages.skipped(file.label, file.existing));
    return { path: file.existing, written: false };
  }
  // --force regenerates a file where it is, in its own language; a new file gets the run's language.
  const path = file.existing ?? `${file.stem}.${language}`;
  tree.write(path, renderTemplate(`${file.template}.${languageOf(path)}.hbs`, file.data));
  const exists = file.existing !== undefined;
  const line = context.dryRun ? (exists ? messages.wouldOverwrite : messages.wouldCreate) : exists ? messages.overwritten : messages.created;
  context.print(line(file.label, path));
  return { path, written: true };
}

/**
 * Why a run found no resources. The default folder missing means panel-api runs from the wrong
 * folder (or a wrong `--root`): the message says where it looked and how to get to the app root.
 * A folder the app configured is named as it is: creating it is the fix.
 */
export function noResourcesMessage(appRoot: string, resourcesDir: string, dir: string): string {
  if (resourcesDir !== RESOURCES_DIR || existsSync(dir)) return messages.noResources(dir);
  return messages.noResourcesFolder(resolve(appRoot), resourcesDir, findNearbyAppRoot(resolve(appRoot), resourcesDir));
}

/** The resource a mistyped name probably means: same letters in another case, or its route or singular key (`book`, `books`, `blog_post`). */
function suggestResource(name: string, resources: readonly ScannedResource[]): string | undefined {
  const wanted = name.toLowerCase();
  return resources.find((r) => {
    const naming = resourceNaming(r.name);
    return [r.name, r.className, naming.routeKey, naming.singularKey].some((candidate) => candidate.toLowerCase() === wanted);
  })?.name;
}

/**
 * Reads the app statically (the resources, and the controllers of `versions`) and selects the
 * resources of a run; prints why it cannot run and returns the exit code instead when it cannot.
 */
export function prepareRun(context: GenerateContext, versions: readonly string[] | 'all' = [context.version]): { exitCode: number } | { resources: readonly ScannedResource[]; scan: { resources: ResourceScan; controllers: ControllerScan } } {
  if (!isValidVersion(context.version)) {
    context.printError(messages.invalidVersion(context.version));
    return { exitCode: 2 };
  }
  const project = scanProject();
  const resourceScan = scanResources(context.appRoot, context.resourcesDir ?? RESOURCES_DIR, project);
  const controllerScan = scanControllers(context.appRoot, context.controllersDir ?? CONTROLLERS_DIR, versions === 'all' ? undefined : versions, project);
  const problems = [...resourceScan.problems, ...controllerScan.problems];
  if (problems.length > 0) {
    for (const problem of problems) context.printError(problemLine(problem));
    return { exitCode: 1 };
  }
  if (resourceScan.resources.length === 0) {
    context.printError(noResourcesMessage(context.appRoot, context.resourcesDir ?? RESOURCES_DIR, resourceScan.dir));
    return { exitCode: 1 };
  }
  const all = resourceScan.resources;
  let selected: readonly ScannedResource[] = all;
  if (context.only) {
    const missing = context.only.filter((name) => !all.some((r) => r.name === name || r.className === name));
    if (missing.length > 0) {
      context.printError(messages.unknownResource(missing[0]!, all.map((r) => r.name), suggestResource(missing[0]!, all)));
      return { exitCode: 1 };
    }
    selected = all.filter((r) => context.only!.includes(r.name) || context.only!.includes(r.className));
  }
  const basePath = `${posix.join(context.controllersDir ?? CONTROLLERS_DIR, context.version, BASE_CONTROLLER_STEM)}.${context.language ?? inferLanguage(resourceScan)}`;
  const problem = conflicts(selected, basePath);
  if (problem) {
    context.printError(problem);
    return { exitCode: 1 };
  }
  return { resources: selected, scan: { resources: resourceScan, controllers: controllerScan } };
}

/**
 * Renders one controller per resource (and then the base controller) on an in-memory tree,
 * skips files that exist unless forced, and writes once at the end (never on a dry run).
 */
export async function generateAction(context: GenerateContext): Promise<GenerateResult> {
  const prepared = prepareRun(context);
  if ('exitCode' in prepared) return { exitCode: prepared.exitCode, planned: [] };
  const tree = new FileTree(context.appRoot);
  const plan = planGenerator(context, prepared.resources, prepared.scan, tree);
  const planned = plan.files.map((file) => planWrite(tree, context, plan.language, file));
  if (!context.withBase && plan.base.existing === undefined) context.print(messages.missingBase(`${plan.base.stem}.${plan.language}`, context.version));
  if (context.dryRun) context.print(messages.dryRun());
  else await tree.commit();
  return { exitCode: 0, planned };
}
