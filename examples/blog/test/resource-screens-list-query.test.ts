// The index screen's forms and result line, with JavaScript off (docs/panel-screens.md): the
// index takes "the API's own list parameters … filter[<field>][<op>] (and filter[<field>])",
// with the "applied filters listed with a link removing each" — so a filter goes away by its own
// remove link, never because the filters form was applied; and the result line counts its
// records in words ("1–25 of 52 blog posts"; one record is "1 blog post").
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from './demo-app-support.js';
import { API_KEYS, PEOPLE, mainText, signInAs } from './resource-screens-support.js';

/** The hidden fields of the form whose submit button says "Apply filters". */
function filtersFormHidden(html: string): [string, string][] {
  const form = /<form[^>]*>(?:(?!<\/form>)[\s\S])*Apply filters(?:(?!<\/form>)[\s\S])*<\/form>/.exec(html)?.[0] ?? '';
  return [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1]!.replace(/&#x5B;|&#91;/g, '[').replace(/&#x5D;|&#93;/g, ']'), match[2]!]);
}

describeOnEachDatabase('the index screen\'s query', (demo) => {
  it('the filters form keeps, as hidden fields, every applied filter it has no control for (starts_with, in, the shorthand), so applying it keeps them', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const page = await ada.get('/panel/resources/blog_posts?filter[title][starts_with]=Post%205&filter[id][in]=1,2,50,51&filter[title]=x&per_page=24');
    expect(page.statusCode).toBe(200);
    const hidden = filtersFormHidden(page.body);
    expect(hidden).toEqual(expect.arrayContaining([
      ['filter[title][starts_with]', 'Post 5'],
      ['filter[id][in]', '1,2,50,51'],
      ['filter[title]', 'x'],
      ['per_page', '24'],
    ]));
    // A filter the form has a control for is the control's, not a hidden field of its own.
    const withControl = await ada.get('/panel/resources/blog_posts?filter[published][eq]=true&filter[title][starts_with]=Post');
    expect(filtersFormHidden(withControl.body).map(([name]) => name)).toEqual(['filter[title][starts_with]']);
  });

  it('one record is "1 blog post", in the result line and past the end', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const one = await ada.get('/panel/resources/blog_posts?filter[id][eq]=5');
    expect(mainText(one.body)).toContain('1–1 of 1 blog post');
    expect(mainText(one.body)).not.toContain('1 blog posts');
    const past = await ada.get('/panel/resources/blog_posts?filter[id][eq]=5&page=2');
    expect(mainText(past.body)).toContain('Page 2 is past the end of 1 blog post.');
    const many = await ada.get('/panel/resources/blog_posts?per_page=5');
    expect(mainText(many.body)).toMatch(/1–5 of \d+ blog posts/);
  });
  it('"400 page inside the shell with the API\'s 400 message for the same query": a NUL character in any parameter or its name', async () => {
    const ada = await signInAs(demo(), PEOPLE.ada);
    const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
    for (const query of ['q=%00', 'filter[title][contains]=%00', 'sort_by=%00', 'page=%00', 'per_page=%00', 'sort_direction=%00', 'filter[ti%00tle][eq]=1']) {
      const viaApi = await demo().app.inject({ method: 'GET', url: `/api/resources/v1/blog_posts?${query}`, headers: { authorization: API_KEYS.ada } });
      expect(viaApi.statusCode, query).toBe(400);
      const screen = await ada.get(`/panel/resources/blog_posts?${query}`);
      expect(screen.statusCode, query).toBe(400);
      expect(screen.body, query).toContain('<nav class="sidebar"');
      expect(decode(mainText(screen.body)), query).toContain(viaApi.json().error);
    }
  });
});
