/** The key under which a row carries a value a field type's `select` computed in SQL (`__has_many__comments`). */
export const associationKey = (field: { readonly type: string; readonly name: string }): string => `__${field.type}__${field.name}`;
