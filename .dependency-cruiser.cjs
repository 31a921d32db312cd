/**
 * The import-cycle check of `npm run lint`: no module of a package's sources may reach itself
 * through its imports, type-only imports included (shared types live in leaf modules).
 * TypeScript is parsed with swc: the repository's TypeScript 7 has no compiler API.
 */
module.exports = {
  forbidden: [
    {
      name: 'edition-a-not-edition-b',
      severity: 'error',
      comment: 'Edition A (@panel/api, @panel/panel-ui) imports nothing from @panel/api-tokens, not even a type: Edition B plugs in through the extension points (docs/extensions.md).',
      from: { path: '^packages/(api|panel-ui)/' },
      to: { path: '(^|/)(packages/api-tokens/|node_modules/@panel/api-tokens(/|$)|@panel/api-tokens$)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move what both sides share into a leaf module both import.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|\\.test\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], conditionNames: ['@panel/source', 'import', 'default'] },
  },
};
