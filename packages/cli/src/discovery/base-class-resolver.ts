import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Node, SyntaxKind, type ClassDeclaration, type Project, type SourceFile } from 'ts-morph';

/** The package whose `Resource` class every resource extends, directly or through other classes. */
export const CORE_PACKAGE = '@panel/core';

/**
 * What reading a class's `extends` chain told: it reaches `Resource` from `@panel/core`
 * (`resource`, with the nearest `static resourceName` of the chain), it does not (`other`), or
 * the chain leaves what panel-api reads without running code (`unknown`, with the reason).
 */
export type Heritage =
  | { readonly kind: 'resource'; readonly inheritedName: StaticName }
  | { readonly kind: 'other' }
  | { readonly kind: 'unknown'; readonly reason: string; readonly baseName: string };

/** A `static resourceName`: absent (`undefined`), a literal, or set to something only running the file would tell (`null`). */
export type StaticName = string | null | undefined;

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * A static property's string literal value: `undefined` when the class does not set it, `null`
 * when it sets it to something only running the file would tell (a variable, a getter).
 */
export function staticString(cls: ClassDeclaration, property: string): StaticName {
  const member = cls.getStaticMember(property);
  if (!member) return undefined;
  const declaration = member.asKind(SyntaxKind.PropertyDeclaration);
  if (!declaration) return null;
  const initializer = declaration.getInitializer();
  if (!initializer) return undefined;
  return initializer.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ?? initializer.asKind(SyntaxKind.NoSubstitutionTemplateLiteral)?.getLiteralValue() ?? null;
}

/** The file a relative import names (`./user.js` → `user.ts`), or undefined when none exists. */
export function resolveRelative(from: SourceFile, specifier: string): string | undefined {
  const base = resolve(dirname(from.getFilePath()), specifier);
  const stem = base.replace(/\.(m?js|m?ts)$/, '');
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => `${stem}${ext}`), ...SOURCE_EXTENSIONS.map((ext) => resolve(base, `index${ext}`))];
  return candidates.find((path) => /\.(m?js|m?ts)$/.test(path) && existsSync(path));
}

/**
 * Follows `extends` clauses through the source files of an app, statically: a base class
 * declared in the same file, imported with a relative path (any folder of the app, through
 * re-exports), or `Resource` imported from `@panel/core` (also aliased or through a namespace
 * import). Verdicts are cached per class.
 */
export class BaseClassResolver {
  readonly #project: Project;
  readonly #verdicts = new Map<ClassDeclaration, Heritage>();

  constructor(project: Project) {
    this.#project = project;
  }

  /** Whether `cls` extends `Resource` (transitively), and the `static resourceName` it inherits. */
  heritage(cls: ClassDeclaration, visiting: Set<ClassDeclaration> = new Set()): Heritage {
    const cached = this.#verdicts.get(cls);
    if (cached) return cached;
    if (visiting.has(cls)) return { kind: 'other' };
    visiting.add(cls);
    const verdict = this.#resolve(cls, visiting);
    this.#verdicts.set(cls, verdict);
    return verdict;
  }

  #resolve(cls: ClassDeclaration, visiting: Set<ClassDeclaration>): Heritage {
    const clause = cls.getExtends();
    if (!clause) return { kind: 'other' };
    const expression = clause.getExpression();
    const text = expression.getText();
    if (Node.isIdentifier(expression)) return this.#binding(cls.getSourceFile(), text, visiting);
    if (Node.isPropertyAccessExpression(expression) && Node.isIdentifier(expression.getExpression())) {
      const namespace = this.#namespaceImport(cls.getSourceFile(), expression.getExpression().getText());
      if (namespace === undefined) return { kind: 'unknown', reason: `it extends ${text}, which panel-api cannot follow`, baseName: text };
      return this.#exported(cls.getSourceFile(), namespace, expression.getName(), visiting, text);
    }
    return { kind: 'unknown', reason: `it extends ${text}, an expression only running the file would evaluate`, baseName: text };
  }

  /** What the identifier `name` is bound to in `file`: a class there, an import, or a global. */
  #binding(file: SourceFile, name: string, visiting: Set<ClassDeclaration>): Heritage {
    const local = file.getClass(name);
    if (local) return this.#withOwnName(local, this.heritage(local, visiting));
    for (const declaration of file.getImportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      if (declaration.getDefaultImport()?.getText() === name) return this.#exported(file, specifier, 'default', visiting, name);
      const named = declaration.getNamedImports().find((i) => (i.getAliasNode()?.getText() ?? i.getName()) === name);
      if (named) return this.#exported(file, specifier, named.getName(), visiting, name);
    }
    if (file.getVariableDeclaration(name) || file.getFunction(name)) {
      return { kind: 'unknown', reason: `it extends ${name}, a value only running the file would tell`, baseName: name };
    }
    // Neither declared nor imported: a global such as Map or Error.
    return { kind: 'other' };
  }

  /** The module specifier of the namespace import `import * as name from '…'`, if `file` has one. */
  #namespaceImport(file: SourceFile, name: string): string | undefined {
    return file.getImportDeclarations().find((d) => d.getNamespaceImport()?.getText() === name)?.getModuleSpecifierValue();
  }

  /** The heritage of the class that module `specifier` (imported from `from`) exports as `exportName`. */
  #exported(from: SourceFile, specifier: string, exportName: string, visiting: Set<ClassDeclaration>, shownAs: string): Heritage {
    if (specifier === CORE_PACKAGE) {
      return exportName === 'Resource' ? { kind: 'resource', inheritedName: undefined } : { kind: 'other' };
    }
    if (!specifier.startsWith('.')) {
      return { kind: 'unknown', reason: `it extends ${shownAs} from '${specifier}', which panel-api does not read (it follows relative imports and ${CORE_PACKAGE})`, baseName: shownAs };
    }
    const path = resolveRelative(from, specifier);
    if (!path) return { kind: 'unknown', reason: `it extends ${shownAs} from '${specifier}', a file that does not exist`, baseName: shownAs };
    const file = this.#project.getSourceFile(path) ?? this.#project.addSourceFileAtPath(path);
    return this.#exportOf(file, exportName, visiting, new Set()) ?? { kind: 'unknown', reason: `'${specifier}' exports no class ${exportName === 'default' ? 'as default' : `named ${exportName}`}`, baseName: shownAs };
  }

  /** The heritage of what `file` exports as `exportName`, following `export { … } from` and `export *`. */
  #exportOf(file: SourceFile, exportName: string, visiting: Set<ClassDeclaration>, files: Set<SourceFile>): Heritage | undefined {
    if (files.has(file)) return undefined;
    files.add(file);
    const declared = file.getClasses().find((c) => (exportName === 'default' ? c.isDefaultExport() : c.getName() === exportName && c.isExported()));
    if (declared) return this.#withOwnName(declared, this.heritage(declared, visiting));
    const assignment = file.getExportAssignment((a) => !a.isExportEquals());
    if (exportName === 'default' && assignment && Node.isIdentifier(assignment.getExpression())) return this.#binding(file, assignment.getExpression().getText(), visiting);
    for (const declaration of file.getExportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      const match = declaration.getNamedExports().find((e) => (e.getAliasNode()?.getText() ?? e.getName()) === exportName);
      if (match) return specifier === undefined ? this.#binding(file, match.getName(), visiting) : this.#exported(file, specifier, match.getName(), visiting, exportName);
      if (declaration.isNamespaceExport() && specifier !== undefined && exportName !== 'default') {
        if (specifier === CORE_PACKAGE) return exportName === 'Resource' ? { kind: 'resource', inheritedName: undefined } : undefined;
        const path = specifier.startsWith('.') ? resolveRelative(file, specifier) : undefined;
        const next = path ? (this.#project.getSourceFile(path) ?? this.#project.addSourceFileAtPath(path)) : undefined;
        const found = next ? this.#exportOf(next, exportName, visiting, files) : undefined;
        if (found) return found;
      }
    }
    return undefined;
  }

  /** A base class's heritage as seen by its subclasses: its own `static resourceName` is inherited first. */
  #withOwnName(cls: ClassDeclaration, heritage: Heritage): Heritage {
    if (heritage.kind !== 'resource') return heritage;
    const own = staticString(cls, 'resourceName');
    return own === undefined ? heritage : { kind: 'resource', inheritedName: own };
  }
}
