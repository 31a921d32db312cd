import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

/** The package and function the configuration block calls. */
export const TOKENS_PACKAGE = '@panel/api-tokens';
export const CONFIGURE_FUNCTION = 'configurePanelApi';
/** The exported name the block declares, which the app passes to `mountPanelApi`. */
export const CONFIG_EXPORT = 'panelApi';

const BLOCK_DOCS = `Panel API, Edition B: built-in bearer tokens and permission grants (added by \`panel-api install\`).

The token pepper is required: token creation and authentication fail until it is set. Set the
environment variable PANEL_API_TOKEN_PEPPER to 32 or more random characters (for example the
output of \`openssl rand -hex 32\`), or pass \`pepper\` from your secret store, which takes
precedence. Changing the pepper invalidates every existing token.

Pass it to the API and to the files' mount: \`app.register(mountPanelApi, { panel, extensions: [${CONFIG_EXPORT}] })\`
and \`app.register(mountPanelAttachments, { panel, extensions: [${CONFIG_EXPORT}] })\`.`;

const GATE_LINES = [
  '  // Who may manage API tokens and the default permissions list, given the signed-in user.',
  '  // Only `true` allows; any other result, or a thrown error, denies. Default: nobody.',
  '  // For example: manageTokensIf: (user) => user?.admin === true,',
  '  manageTokensIf: () => false,',
];

/** What the edit found or did. */
export type InitializerEdit = { readonly kind: 'added' } | { readonly kind: 'present' } | { readonly kind: 'conflict'; readonly line: number };

function callsConfigure(source: SourceFile): boolean {
  return source.getDescendantsOfKind(SyntaxKind.CallExpression).some((call) => {
    const callee = call.getExpression();
    return Node.isIdentifier(callee) && callee.getText() === CONFIGURE_FUNCTION;
  });
}

/**
 * Adds the Edition B configuration block to the app's panel initializer with ts-morph: the
 * import of `configurePanelApi` (merged into an existing import of the package) and an exported
 * `panelApi = configurePanelApi({ manageTokensIf: () => false })` with the pepper instructions.
 * A file that already calls `configurePanelApi` is left as it is, so a second run changes nothing.
 */
export function addConfigurationBlock(source: SourceFile): InitializerEdit {
  if (callsConfigure(source)) return { kind: 'present' };
  const taken = source.getVariableDeclaration(CONFIG_EXPORT) ?? source.getFunction(CONFIG_EXPORT) ?? source.getClass(CONFIG_EXPORT);
  if (taken) return { kind: 'conflict', line: taken.getStartLineNumber() };
  const existing = source.getImportDeclaration((declaration) => declaration.getModuleSpecifierValue() === TOKENS_PACKAGE && !declaration.isTypeOnly());
  if (existing) existing.addNamedImport(CONFIGURE_FUNCTION);
  else source.insertImportDeclaration(source.getImportDeclarations().length, { moduleSpecifier: TOKENS_PACKAGE, namedImports: [CONFIGURE_FUNCTION] });
  const docs = BLOCK_DOCS.split('\n').map((line) => (line ? ` * ${line}` : ' *'));
  source.addStatements(['', '/**', ...docs, ' */', `export const ${CONFIG_EXPORT} = ${CONFIGURE_FUNCTION}({`, ...GATE_LINES, '});'].join('\n'));
  return { kind: 'added' };
}
