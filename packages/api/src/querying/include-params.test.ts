import { describe, expect, it } from 'vitest';
import { Resource, compileResources, field, type CompiledField, type CompiledResource, type View } from '@panel/core';
import { includeRequest, type IncludeGraph } from './include-params.js';

class PostResource extends Resource {
  static override include = { maxDepth: 3 };
  fields() {
    return [
      field.id(),
      field.text('title'),
      field.text('body', { hideOn: 'index' }),
      field.belongsTo('author', { resource: 'User' }),
      field.hasMany('comments'),
      field.hasAndBelongsToMany('tags'),
      field.belongsTo('editor', { resource: 'User', includable: false }),
      field.belongsTo('reviewer', { resource: 'User', onlyOn: 'show' }),
    ];
  }
}
class CommentResource extends Resource {
  fields() {
    return [field.id(), field.text('body'), field.integer('stars'), field.belongsTo('post'), field.belongsTo('user')];
  }
}
class UserResource extends Resource {
  fields() {
    return [field.id(), field.text('name'), field.text('email'), field.hasMany('posts', { foreignKey: 'author_id' }), field.hasOne('profile')];
  }
}
class ProfileResource extends Resource {
  fields() {
    return [field.id(), field.text('bio'), field.belongsTo('user')];
  }
}
class TagResource extends Resource {
  fields() {
    return [field.id(), field.text('name')];
  }
}

const resources = compileResources([PostResource, CommentResource, UserResource, ProfileResource, TagResource]);
const resource = (name: string) => resources.get(name)!;

/** The graph of an actor from whom `hidden` fields (by `Resource.field`) are hidden, as a hidden or ungranted association is. */
function graphHiding(...hidden: string[]): IncludeGraph {
  const visible = (r: CompiledResource, view: View): readonly CompiledField[] => r.fieldsOn(view).filter((f) => !hidden.includes(`${r.name}.${f.name}`));
  return {
    includable: (r, view) => visible(r, view).filter((f) => f.kind.association?.include !== undefined && f.definition.options.includable !== false),
    selectable: (r) => visible(r, 'show'),
    defaults: (r) => visible(r, 'index').filter((f) => visible(r, 'show').includes(f)),
    sortable: (r) => visible(r, 'index'),
    resource,
  };
}

const request = (query: Record<string, string | string[]>, options: { view?: View; rootRows?: number; graph?: IncludeGraph; root?: string } = {}) =>
  includeRequest({
    resource: resource(options.root ?? 'Post'),
    view: options.view ?? 'index',
    values: new Map(Object.entries(query).map(([key, value]) => [key, Array.isArray(value) ? value : [value]])),
    graph: options.graph ?? graphHiding(),
    rootRows: options.rootRows ?? 25,
  });

describe('includeRequest: "include: comma-separated association paths … A path implies its prefixes"', () => {
  it('resolves each path and its prefixes, parents first, with each level\'s kind and defaults', () => {
    const { paths, problems, cost } = request({ include: 'comments.user,author' });
    expect(problems).toEqual([]);
    expect(paths.map((p) => [p.path, p.parentPath, p.many, p.target.name, p.perPage])).toEqual([
      ['comments', undefined, true, 'Comment', 5],
      ['comments.user', 'comments', false, 'User', 5],
      ['author', undefined, false, 'User', 5],
    ]);
    // comments: the index fields and the association its own path includes (user), the key.
    expect([...paths[0]!.fields].sort()).toEqual(['body', 'id', 'post', 'stars', 'user']);
    // 25 posts × 5 comments, × 1 user each, + 25 authors.
    expect(cost).toBe(125 + 125 + 25);
  });

  it('answers a hidden association exactly like one that does not exist: "An association that is hidden from the actor … answers exactly like a name that does not exist: 400"', () => {
    const hidden = request({ include: 'author' }, { graph: graphHiding('Post.author') }).problems;
    const missing = request({ include: 'nope' }, { graph: graphHiding('Post.author') }).problems;
    expect(hidden).toEqual(['include: posts has no includable association "author" (includable: comments, tags)']);
    expect(missing).toEqual(['include: posts has no includable association "nope" (includable: comments, tags)']);
  });

  it('answers an association declared not includable, and one not on the view, as unknown', () => {
    expect(request({ include: 'editor' }).problems[0]).toBe('include: posts has no includable association "editor" (includable: author, comments, tags)');
    expect(request({ include: 'reviewer' }).problems[0]).toMatch(/no includable association "reviewer"/);
    expect(request({ include: 'reviewer' }, { view: 'show' }).problems).toEqual([]);
  });

  it('refuses a path deeper than the resource allows, and more paths than it allows, with their limits', () => {
    expect(request({ include: 'comments.user.posts.comments' }).problems).toEqual(['include: "comments.user.posts.comments" is 4 levels deep; at most 3']);
    expect(request({ include: 'comments.user.posts' }).problems).toEqual([]);
    expect(request({ include: 'author.posts.comments' }, { root: 'Comment' }).problems).toEqual(['include: "author.posts.comments" is 3 levels deep; at most 2']);
    expect(request({ include: 'author,comments.user.posts,tags,author.profile' }).problems).toEqual([
      'include names 6 paths with their prefixes (author, comments, comments.user, comments.user.posts, tags, author.profile); at most 5',
    ]);
  });

  it('names every problem of every include parameter, each with its parameter', () => {
    const { problems } = request({
      include: 'comments,author',
      'include_fields[comments]': 'body,secret',
      'include_per_page[comments]': '21',
      'include_sort_by[comments]': 'nope',
      'include_sort_direction[comments]': 'sideways',
      'include_per_page[author]': '2',
      'include_fields[tags]': 'name',
      include_feilds: 'x',
    });
    expect(problems).toEqual([
      'include_fields[tags]: "tags" is not one of the included paths (comments, author)',
      '"include_feilds" is not an include parameter: write include_fields[<path>], include_per_page[<path>], include_sort_by[<path>] or include_sort_direction[<path>]',
      'include_fields[comments]: comments has no field "secret" here (fields: id, body, stars, post, user)',
      'include_per_page[comments] must be an integer from 1 to 20, instead got "21"',
      'include_sort_by[comments] must be one of id, body, stars, instead got "nope"',
      'include_sort_direction[comments] must be "asc" or "desc", instead got "sideways"',
      'include_per_page[author]: author is a to-one association (one record or null); only a to-many path takes include_per_page',
    ]);
  });

  it('takes per-path fields, per-page and order for a to-many path', () => {
    const { paths, problems } = request({ include: 'comments', 'include_fields[comments]': 'body', 'include_per_page[comments]': '3', 'include_sort_by[comments]': 'stars', 'include_sort_direction[comments]': 'desc' });
    expect(problems).toEqual([]);
    expect([...paths[0]!.fields]).toEqual(['body', 'id']);
    expect(paths[0]!.perPage).toBe(3);
    expect(paths[0]!.sort).toEqual({ column: 'stars', direction: 'desc' });
  });

  it('refuses over the embedded-records budget, naming the cost and the limit', () => {
    const { problems, cost } = request({ include: 'comments.user', 'include_per_page[comments]': '20' }, { rootRows: 100 });
    expect(cost).toBe(4000);
    expect(problems).toEqual(['include would embed up to 4000 records (comments: 2000, comments.user: 2000); at most 2500: ask for fewer records per page (per_page, include_per_page[…]) or fewer paths']);
    expect(request({ include: 'comments.user', 'include_per_page[comments]': '20' }, { rootRows: 60 }).problems).toEqual([]);
  });

  it('refuses an empty include, an empty segment, and options without include', () => {
    expect(request({ include: '' }).problems).toEqual(['include must list association paths, comma-separated (include=author,comments.user)']);
    expect(request({ include: 'comments..user' }).problems).toEqual(['include: "comments..user" is not a path (write association names joined by ".")']);
    expect(request({ 'include_fields[author]': 'name' }).problems).toEqual(['include_fields[author]: there is no include']);
  });
});
