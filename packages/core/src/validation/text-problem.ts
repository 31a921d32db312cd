const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What is wrong with a text a client sent, for text PostgreSQL cannot store or that is not
 * Unicode: a NUL character (`text` and `jsonb` refuse U+0000), or a lone surrogate (it would
 * be stored as U+FFFD, silently changed). Looks into arrays and objects (keys too), so a
 * `tags` or `key_value` value is judged as a whole. Undefined when the value is fine.
 *
 * @example
 * textProblem('a\u0000b'); // 'must not contain a NUL character'
 * textProblem({ colour: 'red' }); // undefined
 */
export function textProblem(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return 'must not contain a NUL character';
    return !LONE_SURROGATE.test(value) ? undefined : 'must be valid Unicode text (it has a lone surrogate)';
  }
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = textProblem(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = textProblem(key, depth + 1) ?? textProblem(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}
