import type { Panel } from '../panel/panel.js';
import type { FileChange } from '../uploads/file-changes.js';
import { fileProblem, INVALID_UPLOAD_MESSAGE } from '../uploads/file-rules.js';

/**
 * The second round of a write's file fields: looks up the uploads it names (one statement,
 * none when it names none) and adds each field's problems to `errors`: an id that is unknown,
 * expired, used already (named twice in this write, too) or another uploader's gets one message
 * for all four; an upload too large for the field (`maxBytes`) or of a type it does not
 * `accept` (judged from its bytes) gets the field's rule. Without an `uploader`, no upload is the write's.
 */
export async function judgeUploads(input: { readonly panel: Panel; readonly uploader: string | undefined; readonly files: readonly FileChange[]; readonly errors: Record<string, string[]> }): Promise<void> {
  const { panel, uploader, files, errors } = input;
  const ids = files.flatMap((change) => change.attach);
  if (ids.length === 0) return;
  const found = uploader === undefined ? new Map() : await panel.uploads.resolve({ owner: uploader, ids });
  // Single-use: an id named a second time in the write (in one list, or under two fields) is a used one.
  const named = new Set<string>();
  for (const { field, attach } of files) {
    for (const id of attach) {
      const upload = named.has(id) ? undefined : found.get(id);
      named.add(id);
      const problem = upload ? fileProblem(field, { byteSize: upload.byteSize, contentType: upload.contentType }) : INVALID_UPLOAD_MESSAGE;
      if (problem === undefined) continue;
      const messages = errors[field.name] ?? [];
      if (!messages.includes(problem)) errors[field.name] = [...messages, problem];
    }
  }
}
