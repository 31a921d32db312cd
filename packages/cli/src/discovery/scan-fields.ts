import { Node, SyntaxKind, type ClassDeclaration, type Expression } from 'ts-morph';

/** A field declared in a resource's `fields()`, read from the source: `field.belongsTo('author', { resource: 'User' })`. */
export interface ScannedField {
  readonly name: string;
  /** The `field` builder called: `text`, `belongsTo`, `hasMany`… */
  readonly builder: string;
  readonly line: number;
  /** The `resource` option: a string literal, `null` when it is not one, undefined when absent. */
  readonly resource?: string | null;
  /** The option keys of an object literal without spreads, each with its line; undefined when the options are not such a literal. */
  readonly optionKeys?: readonly { readonly key: string; readonly line: number }[];
}

function literal(node: Node | undefined): string | undefined {
  return node?.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ?? node?.asKind(SyntaxKind.NoSubstitutionTemplateLiteral)?.getLiteralValue();
}

/** The `resource` option of a builder call's options object, when it has one. */
function resourceOption(options: Node | undefined): string | null | undefined {
  if (!options) return undefined;
  if (!Node.isObjectLiteralExpression(options)) return null;
  const property = options.getProperty('resource');
  if (!property) return options.getProperties().some((p) => Node.isSpreadAssignment(p)) ? null : undefined;
  if (!Node.isPropertyAssignment(property)) return null;
  return literal(property.getInitializer()) ?? null;
}

/** The keys an options object literal spells out, when it has no spread and no computed key. */
function optionKeys(options: Node | undefined): { key: string; line: number }[] | undefined {
  if (!options) return [];
  if (!Node.isObjectLiteralExpression(options)) return undefined;
  const keys: { key: string; line: number }[] = [];
  for (const property of options.getProperties()) {
    if (!Node.isPropertyAssignment(property) && !Node.isShorthandPropertyAssignment(property) && !Node.isMethodDeclaration(property)) return undefined;
    const nameNode = property.getNameNode();
    if (Node.isComputedPropertyName(nameNode)) return undefined;
    keys.push({ key: Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText(), line: property.getStartLineNumber() });
  }
  return keys;
}

/** One `field.<builder>('<name>', …)` call, or undefined for anything else (a spread, a variable, a helper). */
function fieldCall(element: Expression): ScannedField | undefined {
  if (!Node.isCallExpression(element)) return undefined;
  const callee = element.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || callee.getExpression().getText() !== 'field') return undefined;
  const [first, options] = element.getArguments();
  const name = literal(first);
  if (name === undefined) return undefined;
  const resource = resourceOption(options);
  const keys = optionKeys(options);
  return { name, builder: callee.getName(), line: element.getStartLineNumber(), ...(resource === undefined ? {} : { resource }), ...(keys === undefined ? {} : { optionKeys: keys }) };
}

/**
 * The fields a resource class declares, read statically from the array its own `fields()`
 * returns (`return [field.id(), field.text('title'), …]`). Elements that only running the code
 * would tell (spreads, variables, helper calls) are left out; undefined when the class has no
 * `fields()` of its own or it does not return an array literal. `field.id()` is named `id`.
 */
export function scanFields(cls: ClassDeclaration): ScannedField[] | undefined {
  const method = cls.getInstanceMethod('fields');
  const returned = method?.getStatements().find((statement) => Node.isReturnStatement(statement))?.asKind(SyntaxKind.ReturnStatement)?.getExpression();
  if (!returned || !Node.isArrayLiteralExpression(returned)) return undefined;
  const fields: ScannedField[] = [];
  for (const element of returned.getElements()) {
    if (Node.isCallExpression(element) && element.getExpression().getText() === 'field.id' && element.getArguments().length === 0) {
      fields.push({ name: 'id', builder: 'id', line: element.getStartLineNumber() });
      continue;
    }
    const found = fieldCall(element);
    if (found) fields.push(found);
  }
  return fields;
}
