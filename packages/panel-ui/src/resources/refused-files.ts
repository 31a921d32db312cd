import { fileProblem, type CompiledResource, type ErrorMessages, type Panel } from '@panel/core';
import { controlName, type TypedValues } from './record-form.js';
import { discardUploads, notKept } from './multipart-form.js';

/** What `withoutRefusedFiles` takes: a refused write's form and messages, and whose uploads its files are. */
export interface RefusedWrite {
  readonly panel: Panel;
  /** Whose uploads the form's files are (`user:<id>`). */
  readonly owner: string;
  readonly resource: CompiledResource;
  readonly typed: TypedValues;
  readonly errors: ErrorMessages;
}

/**
 * After a write refused with 422: the chosen files that are themselves a reason of the refusal
 * (too large for their field, of a type it does not `accept`: core's `fileProblem`, the write's
 * own judge) are discarded and left out of the form shown again, and their field's message says
 * that the file was not kept; so the next save does not fail again on them. The other chosen
 * files stay pending, as the form shows them. Answers the values and messages to show.
 */
export async function withoutRefusedFiles(input: RefusedWrite): Promise<{ typed: TypedValues; errors: ErrorMessages }> {
  const { panel, owner, resource, errors } = input;
  const typed = new Map(input.typed);
  const shown: Record<string, string[]> = { ...errors };
  const refused: string[] = [];
  for (const field of resource.fields) {
    const ids = typed.get(controlName(field));
    if (!field.kind.attachments || !errors[field.name] || !ids || ids.length === 0) continue;
    const found = await panel.uploads.resolve({ owner, ids });
    const problems = new Set<string>();
    const left = ids.filter((id) => {
      const upload = found.get(id);
      const problem = upload && fileProblem(field, upload);
      if (problem === undefined) return true;
      problems.add(problem);
      refused.push(id);
      return false;
    });
    if (problems.size === 0) continue;
    typed.set(controlName(field), left);
    shown[field.name] = errors[field.name]!.map((message) => (problems.has(message) ? notKept(message) : message));
  }
  await discardUploads(panel, owner, refused);
  return { typed, errors: shown };
}
