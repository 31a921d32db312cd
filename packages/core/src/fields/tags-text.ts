/** Tags as the screens' comma-separated text: each comma and backslash inside a tag escaped (`\,` and `\\`), the tags joined by ", ". */
export function tagsText(tags: readonly string[]): string {
  return tags.map((tag) => tag.replace(/\\/g, '\\\\').replace(/,/g, '\\,')).join(', ');
}

/**
 * The tags of the comma-separated text `TAGS_FORM` shows: a comma separates, `\,` is a comma
 * inside a tag and `\\` a backslash; a backslash before any other character is itself. So every
 * value the API stores round-trips through the form (a tag such as "a,b" is shown "a\,b").
 */
export function splitTags(text: string): string[] {
  const tags: string[] = [];
  let tag = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '\\' && (next === ',' || next === '\\')) {
      tag += next;
      i += 1;
    } else if (char === ',') {
      tags.push(tag);
      tag = '';
    } else tag += char;
  }
  tags.push(tag);
  return tags;
}
