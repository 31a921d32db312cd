import Handlebars from 'handlebars';

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
const ISOLATE_INITIATORS = new Set(['\u2066', '\u2067', '\u2068']);

/**
 * A character that can reorder the text around it: a bidi control (marks, embeddings,
 * overrides, isolates) or one of the blocks whose characters are right-to-left by default
 * (Hebrew to Arabic Extended-A, the Hebrew and Arabic presentation forms, and the astral RTL
 * blocks). A superset of the strong RTL and Arabic-number classes: isolating a little too
 * often costs nothing.
 */
const REORDERING = /[\p{Bidi_Control}\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/**
 * Whether `value` needs isolating from the panel's left-to-right text: only when it holds a
 * character that can reorder text. A value of left-to-right and neutral characters only
 * resolves the same with or without isolation, and keeps its markup as it was.
 */
function needsIsolation(value: string): boolean {
  return REORDERING.test(value);
}

/**
 * `value` with its isolates balanced: a PDI with no initiator before it is dropped (inside an
 * isolate of its own it does nothing, but around other text it would close the isolate that
 * holds the value), and every initiator left open is closed. Embeddings and overrides (LRE, RLE,
 * LRO, RLO) need nothing: the PDI that ends the value's isolate closes them (UAX #9, X6a).
 */
function balancedIsolates(value: string): string {
  let open = 0;
  let balanced = '';
  for (const char of value) {
    if (ISOLATE_INITIATORS.has(char)) open += 1;
    else if (char === POP_DIRECTIONAL_ISOLATE) {
      if (open === 0) continue;
      open -= 1;
    }
    balanced += char;
  }
  return balanced + POP_DIRECTIONAL_ISOLATE.repeat(open);
}

/**
 * A record's value for plain text (a page's `<title>`, where no markup is allowed): between
 * FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it holds a right-to-left character or a
 * bidi control (else as it is), so that its bidi controls and its direction
 * cannot reorder the panel's text around it.
 *
 * @example
 * `${isolatedText(label)} · Blog posts` // "\u2068Invoice \u202Efdp.exe\u2069 · Blog posts"
 */
export function isolatedText(value: string): string {
  if (!needsIsolation(value)) return value;
  return FIRST_STRONG_ISOLATE + balancedIsolates(value) + POP_DIRECTIONAL_ISOLATE;
}

/**
 * The `isolated` Handlebars helper: a record's value for HTML text, escaped, and inside `<bdi>`
 * when it holds a right-to-left character or a bidi control (else as `{{value}}` prints it), so that its bidi controls and its direction cannot reorder the panel's text around it.
 *
 * @example
 * `<h1>Delete “{{isolated recordLabel}}”?</h1>`
 */
export function isolatedHtml(value: unknown): Handlebars.SafeString | '' {
  if (value === undefined || value === null) return '';
  const text = String(value);
  if (!needsIsolation(text)) return new Handlebars.SafeString(Handlebars.escapeExpression(text));
  return new Handlebars.SafeString(`<bdi>${Handlebars.escapeExpression(balancedIsolates(text))}</bdi>`);
}
