import { describe, expect, it } from 'vitest';
import type { CompiledField } from '../resources/compiled-types.js';
import { recordKeyOf } from '../resources/record-key.js';
import { LONG_TEXT_FORM, RECORD_FORM, TAGS_FORM } from './field-forms.js';

const fromForm = RECORD_FORM.fromForm!;

/** A belongs_to field whose target is keyed as `type` (what compiling the resources sets). */
function belongsToOf(type: 'integer' | 'bigint' | 'uuid' | 'text'): CompiledField {
  return { extra: { targetKey: recordKeyOf('Target', 'id', type) } } as unknown as CompiledField;
}

// Issue 46: "the key round-trips as the target's key type says" — a belongs_to's posted value is
// the target's key as the form wrote it, never a number made of a text key's digits.
describe('a belongs_to form value is the target key of its type', () => {
  it('a text key made only of digits keeps its text, leading zeros included', () => {
    expect(fromForm(['00123'], belongsToOf('text'))).toBe('00123');
    expect(fromForm(['42'], belongsToOf('text'))).toBe('42');
  });

  it('a bigint key past 2^53 keeps its exact digits', () => {
    expect(fromForm(['9007199254740993'], belongsToOf('bigint'))).toBe('9007199254740993');
  });

  it('an integer key is a number, and empty is null', () => {
    expect(fromForm(['42'], belongsToOf('integer'))).toBe(42);
    expect(fromForm([''], belongsToOf('text'))).toBeNull();
  });
});

// "The API value of a textarea is LF-normalized" (HTML, the textarea element): a browser posts
// its line breaks as CRLF; the write value is the text with each CRLF and lone CR made LF.
describe('a text area\'s posted line breaks are LF', () => {
  const textFromForm = LONG_TEXT_FORM.fromForm!;
  const field = {} as CompiledField;

  it('CRLF and lone CR become LF; LF and the rest of the text are kept', () => {
    expect(textFromForm(['a\r\nb\rc\nd'], field)).toBe('a\nb\nc\nd');
    expect(textFromForm(['\r\n\r\n  kept  \r'], field)).toBe('\n\n  kept  \n');
    expect(textFromForm([''], field)).toBe('');
  });
});

// The tags' comma-separated text: a value the API stores must come back from the form unchanged.
describe('TAGS_FORM: a comma or a backslash inside a tag round-trips through the comma-separated text', () => {
  const field = {} as CompiledField;
  const shown = (tags: string[]) => TAGS_FORM.formValue!(tags, field)[0]!;
  const read = (text: string) => TAGS_FORM.fromForm!([text], field);

  it('every tag the records layer keeps (quotes, commas, braces, backslashes) reads back as itself', () => {
    for (const tags of [['a,b', '{c}', 'say "hi"', 'back\\slash', 'NULL'], [',', '\\', '\\,', 'x,,y'], ['plain', 'two words']]) {
      expect(read(shown(tags)), JSON.stringify(tags)).toEqual(tags);
    }
  });

  it('typed by hand: commas separate, "\\," is a comma and "\\\\" a backslash, a backslash before another character is itself; tags trimmed, empty ones dropped', () => {
    expect(read(' a , b\\,c ,, back\\slash, d\\\\ ')).toEqual(['a', 'b,c', 'back\\slash', 'd\\']);
  });
});
