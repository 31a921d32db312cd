import type { OpenApiObject } from './openapi-options.js';

const REF = /^#\/components\/(schemas|headers|parameters|responses|requestBodies)\/(.+)$/;

/** Every `$ref` under a value, as `[section, name]`. */
function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && REF.test(inner)) found.add(inner);
      else refsIn(inner, found);
    }
  }
}

/**
 * The document without the components nothing refers to (a resource's `_related` record when
 * no traversal route is drawn, `DestroyResult` when no destroy route is), following references
 * between components too. Linters report an unused component (Spectral's
 * `oas3-unused-component`, Redocly's `no-unused-components`); security schemes are kept, as
 * operations name them without `$ref`.
 */
export function withoutUnusedComponents(document: OpenApiObject): OpenApiObject {
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const used = new Set<string>();
  refsIn({ ...document, components: undefined }, used);
  let grown = true;
  while (grown) {
    const before = used.size;
    for (const ref of [...used]) {
      const [, section, name] = REF.exec(ref)!;
      refsIn(components[section!]?.[name!], used);
    }
    grown = used.size > before;
  }
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [section, entries] of Object.entries(components)) {
    if (section === 'securitySchemes') {
      kept[section] = entries;
      continue;
    }
    const remaining = Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`#/components/${section}/${name}`)));
    if (Object.keys(remaining).length > 0) kept[section] = remaining;
  }
  return { ...document, components: kept };
}
