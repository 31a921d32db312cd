import { describe, expect, it } from 'vitest';
import { isolatedHtml, isolatedText } from './bidi-isolation.js';

describe('a record\'s value isolated from the text around it', () => {
  it('is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE for plain text; the PDI closes an override left open (UAX #9, X6a)', () => {
    expect(isolatedText('Invoice \u202Efdp.exe')).toBe('\u2068Invoice \u202Efdp.exe\u2069');
  });

  it('closes an isolate the value leaves open, so that the last PDI closes the value\'s own isolate', () => {
    expect(isolatedText('a\u2067b')).toBe('\u2068a\u2067b\u2069\u2069');
    expect(isolatedText('\u2066x\u2069\u2068y')).toBe('\u2068\u2066x\u2069\u2068y\u2069\u2069');
  });

  it('drops a PDI with no initiator in the value: it would close the value\'s isolate early and let the override after it run on', () => {
    expect(isolatedText('x\u2069\u202Eabc')).toBe('\u2068x\u202Eabc\u2069');
  });

  it('leaves a value of left-to-right and neutral characters as it is: it resolves the same isolated or not', () => {
    expect(isolatedText('Post 02: Kitchens')).toBe('Post 02: Kitchens');
    expect(String(isolatedHtml('Comment #5 <b>'))).toBe('Comment #5 &lt;b&gt;');
  });

  it('isolates a value with a right-to-left letter, an Arabic digit or a mark, even without an override', () => {
    expect(isolatedText('שלום 3')).toBe('\u2068שלום 3\u2069');
    expect(isolatedText('٣')).toBe('\u2068٣\u2069');
    expect(isolatedText('a\u200Fb')).toBe('\u2068a\u200Fb\u2069');
    expect(isolatedText('\u{10900}')).toBe('\u2068\u{10900}\u2069');
  });

  it('is escaped and inside <bdi> for HTML text', () => {
    expect(String(isolatedHtml('<b>\u202E'))).toBe('<bdi>&lt;b&gt;\u202E</bdi>');
    expect(String(isolatedHtml('x\u2069\u202E'))).toBe('<bdi>x\u202E</bdi>');
    expect(isolatedHtml(undefined)).toBe('');
  });
});
