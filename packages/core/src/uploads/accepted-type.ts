/** The type part of a media type, lower-cased and without parameters (`text/plain; charset=utf-8` → `text/plain`). */
export function essence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether a media type is one of `accept` (`image/png`, or `image/*` for any image, or `*\/*`).
 * Parameters are ignored on both sides.
 */
export function acceptsType(accept: readonly string[], contentType: string): boolean {
  const type = essence(contentType);
  return accept.some((pattern) => {
    const wanted = essence(pattern);
    if (wanted === '*/*' || wanted === type) return true;
    return wanted.endsWith('/*') && type.startsWith(wanted.slice(0, -1));
  });
}

/** Bytes as people read them: `10 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size && bytes % (size / 16) === 0) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return `${bytes} bytes`;
}
