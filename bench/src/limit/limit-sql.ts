/** The limit's statement parts shared by its reads and writes. */

/** The association columns for the row aliased `r`, the author's name read by admins (`admin`, a boolean parameter) and by the author (`user`). */
export const associationsSql = (admin: string, user: string) => `(select u.name from users u where u.id = r.author_id and (${admin}::boolean or u.id = ${user})) as author_name,
  (select count(*)::int from comments c where c.blog_post_id = r.id) as comments_count,
  (select count(*)::int from blog_posts_tags j where j.blog_post_id = r.id) as tags_count,
  (select json_build_object('key', b.key, 'filename', b.filename, 'content_type', b.content_type, 'byte_size', b.byte_size)
     from panel_attachments a join panel_blobs b on b.id = a.blob_id
     where a.record_type = 'BlogPost' and a.name = 'cover' and a.record_id = r.id order by a.position desc limit 1) as cover,
  (select coalesce(json_agg(json_build_object('key', b.key, 'filename', b.filename, 'content_type', b.content_type, 'byte_size', b.byte_size) order by a.position, a.id), '[]'::json)
     from panel_attachments a join panel_blobs b on b.id = a.blob_id
     where a.record_type = 'BlogPost' and a.name = 'attachments' and a.record_id = r.id) as attachments`;
