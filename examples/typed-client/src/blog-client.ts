import createClient from 'openapi-fetch';
import type { components, paths } from './blog-api.js';

/** A blog post as the index answers it: the type comes from the demo's OpenAPI document. */
export type BlogPostSummary = components['schemas']['BlogPost_index'];
/** What a new blog post may carry (the `new` view's writable fields). */
export type NewBlogPost = components['schemas']['BlogPostCreate'];
/** The query parameters of the blog post list: `filter[…]` by literal name, `q`, `fields`, typed by the document. */
export type BlogPostQuery = NonNullable<paths['/api/resources/v1/blog_posts']['get']['parameters']['query']>;
/** A field `fields=` may name on the blog post list. */
export type BlogPostField = NonNullable<BlogPostQuery['fields']>[number];
/** A record answered with a sparse fieldset: `id` and exactly the fields asked for. */
export type Sparse<Record extends { id: unknown }, Field extends keyof Record> = Pick<Record, 'id' | Field>;

/**
 * A typed client of the demo's API: every path, parameter, body and answer is checked by the
 * compiler against `blog-api.d.ts`, which `npm run generate` makes from `../blog/openapi/v1.json`.
 *
 * @example
 * const blog = blogClient('http://127.0.0.1:3000', 'demo-admin-key');
 * const posts = await blog.listPublishedPosts();
 */
export function blogClient(baseUrl: string, apiKey: string) {
  // A policy's refusal is a documented 302 (Edition A): surfaced as that answer, never followed into the panel's HTML.
  const client = createClient<paths>({ baseUrl, headers: { authorization: `ApiKey ${apiKey}` }, redirect: 'manual' });
  return {
    client,
    /** The first page of published posts, newest first. */
    async listPublishedPosts(perPage = 10): Promise<BlogPostSummary[]> {
      const { data, error } = await client.GET('/api/resources/v1/blog_posts', { params: { query: { per_page: perPage, sort_by: 'published_on', sort_direction: 'desc' } } });
      if (error) throw new Error(`listBlogPosts failed: ${error.error}`);
      return data.records.filter((post) => post.published === true);
    },
    /**
     * The published posts of one author whose title or body contains a word, with only the
     * fields asked for: the filters, the search and the fieldset are typed by the document, and
     * so is the answer (`Sparse`), e.g. `postsOfAuthorContaining(1, 'tea', ['title', 'author'])`.
     */
    async postsOfAuthorContaining<Field extends BlogPostField>(authorId: number, word: string, fields: readonly Field[]): Promise<Sparse<BlogPostSummary, Field>[]> {
      const query = { 'filter[published]': true, 'filter[author_id]': authorId, q: word, fields: [...fields] } satisfies BlogPostQuery;
      const { data, error } = await client.GET('/api/resources/v1/blog_posts', { params: { query } });
      if (error) throw new Error(`listBlogPosts failed: ${error.error}`);
      return data.records;
    },
    /**
     * Every post of a query, page after page in cursor mode (`pagination=cursor`, then each
     * `next_cursor` as `after`): an async iterator that stops after the last page. Stable while
     * others write: a row is never seen twice, and none that stayed is skipped.
     *
     * @example
     * for await (const post of blog.eachPost({ 'filter[published]': true, sort_by: 'published_on' })) console.log(post.title);
     */
    async *eachPost(query: Omit<BlogPostQuery, 'page' | 'pagination' | 'after' | 'before'> = {}): AsyncGenerator<BlogPostSummary> {
      let after: string | null | undefined;
      do {
        const { data, error } = await client.GET('/api/resources/v1/blog_posts', { params: { query: { ...query, ...(after ? { after } : { pagination: 'cursor' as const }) } } });
        if (error) throw new Error(`listBlogPosts failed: ${error.error}`);
        yield* data.records;
        after = 'next_cursor' in data.pagination ? data.pagination.next_cursor : null;
      } while (after);
    },
    /**
     * Uploads a file (`POST /api/uploads`, multipart with its part named `file`) and resolves to
     * the upload: its `id` is what a write names under a file field (`cover: upload.id`), once,
     * before `expires_at`; its `content_type` is what the bytes say, not what was declared.
     *
     * @example
     * const upload = await blog.uploadFile(new Blob([png]), 'cover.png');
     * await blog.createPost({ title: 'With a cover', author_id: 1, cover: upload.id });
     */
    async uploadFile(file: Blob, filename: string) {
      const { data, error, response } = await client.POST('/api/uploads', {
        // The typed body names the part; the form sends the file's bytes under it.
        body: { file: filename },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file, filename);
          return form;
        },
      });
      if (data) return data.upload;
      throw new Error(`createUpload failed with ${response.status}: ${error && 'error' in error ? error.error : ''}`);
    },
    /** Creates a post; resolves to the record, or to the messages by field when it is invalid. */
    async createPost(post: NewBlogPost) {
      const { data, error, response } = await client.POST('/api/resources/v1/blog_posts', { body: { blog_post: post } });
      if (data) return { ok: true as const, record: data.record };
      if (response.status === 422 && error && 'errors' in error) return { ok: false as const, errors: error.errors };
      throw new Error(`createBlogPost failed with ${response.status}`);
    },
    /**
     * Creates a post at most once, however many times it is retried: the request carries an
     * `Idempotency-Key` (one per post the caller means to create), and is sent again after a
     * network failure, a 409 (the first attempt still runs) or a 503, waiting `Retry-After`.
     * A retry of a request the server already committed answers the same record, with
     * `replayed: true` (`Idempotent-Replayed: true`), and creates nothing.
     */
    async createPostOnce(post: NewBlogPost, idempotencyKey: string, attempts = 3) {
      for (let attempt = 1; ; attempt++) {
        try {
          const { data, response } = await client.POST('/api/resources/v1/blog_posts', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body: { blog_post: post } });
          if (data) return { record: data.record, etag: response.headers.get('etag'), replayed: response.headers.get('idempotent-replayed') === 'true' };
          if ((response.status !== 409 && response.status !== 503) || attempt >= attempts) throw new Error(`createBlogPost failed with ${response.status}`);
          await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
        } catch (error) {
          // A network failure: the server may or may not have committed; the key makes the retry safe.
          if (!(error instanceof TypeError) || attempt >= attempts) throw error;
        }
      }
    },
  };
}
