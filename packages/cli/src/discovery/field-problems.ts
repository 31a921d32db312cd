import { builtinFieldTypeOfBuilder, field as fieldBuilders, fieldOptionKeys, resourceNameFromAssociation, unknownFieldOptionMessage } from '@panel/core';
import { messages } from '../messages.js';
import type { ScannedResource } from './scan-resources.js';
import type { SourceProblem } from './source-problem.js';

/**
 * What `createPanel` would refuse at boot in the fields read statically, by file and line: a
 * `field` builder that does not exist (`field.interger`) and an option key a builder does not
 * take (`{ requried: true }`), each with the closest known name; a field name declared twice in
 * one resource, and an association whose target resource (its
 * `resource` option, else the name the field implies: `libary` → `Libary`) is not among
 * `resources` nor in `reported` (names already reported another way). Fields only running the
 * code would tell are not judged.
 */
export function fieldProblems(resources: readonly ScannedResource[], reported: ReadonlySet<string> = new Set()): SourceProblem[] {
  const known = new Set(resources.map((r) => r.name));
  const problems: SourceProblem[] = [];
  for (const resource of resources) {
    const seen = new Set<string>();
    for (const field of resource.fields ?? []) {
      if (seen.has(field.name)) problems.push({ file: resource.file, line: field.line, message: messages.duplicateField(resource.name, field.name) });
      seen.add(field.name);
      if (!Object.hasOwn(fieldBuilders, field.builder)) {
        problems.push({ file: resource.file, line: field.line, message: messages.unknownBuilder(resource.name, field.builder, field.name, Object.keys(fieldBuilders)) });
        continue;
      }
      const takes = fieldOptionKeys(field.builder);
      for (const option of field.optionKeys ?? []) {
        if (!takes.includes(option.key)) problems.push({ file: resource.file, line: option.line, message: `Resource ${resource.name}: ${unknownFieldOptionMessage(field.builder, field.name, option.key)}` });
      }
      // An association (its type module says so) names a target resource the CLI can look for.
      if (!builtinFieldTypeOfBuilder(field.builder)?.association || field.resource === null) continue;
      const target = field.resource ?? resourceNameFromAssociation(field.name);
      if (!known.has(target) && !reported.has(target)) problems.push({ file: resource.file, line: field.line, message: messages.unknownTarget(resource.name, field.name, target, field.builder, [...known]) });
    }
  }
  return problems;
}
