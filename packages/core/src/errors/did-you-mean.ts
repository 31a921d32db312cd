/** The edit distance between two words (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known word closest to a mistyped one, when it is close enough to be the one meant (at
 * most a third of its letters off, and at least one letter right); undefined otherwise.
 *
 * @example
 * didYouMean('requried', ['required', 'sortable']) // 'required'
 * didYouMean('interger', ['integer', 'text'])      // 'integer'
 */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of known) {
    const score = distance(word.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || score < best.score) best = { candidate, score };
  }
  if (!best) return undefined;
  return best.score <= Math.max(1, Math.floor(Math.max(word.length, best.candidate.length) / 3)) ? best.candidate : undefined;
}

/** `" Did you mean "x"?"` when a known word is close, else `""`: the tail of an "unknown …" message. */
export function didYouMeanHint(word: string, known: Iterable<string>): string {
  const close = didYouMean(word, known);
  return close === undefined ? '' : ` Did you mean "${close}"?`;
}
