import type { CompiledResource } from '../resources/compiled-types.js';
import type { View } from '../fields/field-types.js';
import { attachmentUrl } from '../attachments/attachment-url.js';
import { loadedFields, loadSelectedValues } from './record-select.js';
import type { RecordRow } from './record-row.js';
import type { RecordsLayer } from './records-layer.js';

/**
 * Turns what the file fields' subqueries loaded into what their serializers read, with URLs:
 * the attachments service's when the layer has one, else under the layer's `rootPath`.
 */
export function resolveFileUrls(layer: RecordsLayer, rows: RecordRow[], resource: CompiledResource, view: View, only?: ReadonlySet<string>): void {
  if (loadedFields(resource, view).length === 0) return;
  const { attachments, rootPath } = layer;
  loadSelectedValues(rows, resource, view, { fileUrl: (blob) => (attachments ? attachments.url(blob) : attachmentUrl(rootPath, blob)) }, only);
}
