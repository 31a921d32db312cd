import { Node, type SourceFile } from 'ts-morph';

/** What registering the migration found or did. */
export type RegistryEdit = { readonly kind: 'added' } | { readonly kind: 'present' } | { readonly kind: 'unrecognized' };

/**
 * Registers a migration module in the app's `db/migrations.ts` (the `migrations` object the
 * guide's app passes to `runMigrations`) with ts-morph: `import * as <alias> from './migrations/<name>.js'`
 * and the property `'<name>': <alias>`. A registry that already names the migration is left alone;
 * one whose `migrations` is not an object literal is reported, not guessed at.
 */
export function registerMigration(source: SourceFile, name: string, moduleSpecifier: string, alias: string): RegistryEdit {
  const declaration = source.getVariableDeclaration('migrations');
  const literal = declaration?.getInitializer();
  if (!literal || !Node.isObjectLiteralExpression(literal)) return { kind: 'unrecognized' };
  const names = literal.getProperties().map((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName().replace(/^['"]|['"]$/g, '') : ''));
  if (names.includes(name)) return { kind: 'present' };
  source.insertImportDeclaration(source.getImportDeclarations().length, { moduleSpecifier, namespaceImport: alias });
  literal.addPropertyAssignment({ name: `'${name}'`, initializer: alias });
  return { kind: 'added' };
}
