/** The OpenAPI schemas of `POST <mount>/uploads`: its bodies (multipart, or JSON for a direct upload) and its answer. */

const JSON_TYPE = 'application/json';

const UPLOAD = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^up_[A-Za-z0-9_-]{43}$', description: 'Name it under a file field of a write, once, before it expires.' },
    filename: { type: 'string' },
    content_type: { type: 'string', description: 'As the bytes say it is (their magic number), not as it was declared.' },
    byte_size: { type: 'integer', minimum: 0 },
    expires_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'filename', 'content_type', 'byte_size', 'expires_at'],
};
export const UPLOAD_ANSWER = {
  type: 'object',
  properties: {
    upload: UPLOAD,
    direct_upload: { type: 'object', description: 'A direct upload: PUT the bytes to `url` with exactly these headers.', properties: { url: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['url', 'headers'] },
  },
  required: ['upload'],
};
export const UPLOAD_BODY = {
  required: true,
  content: {
    'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
    [JSON_TYPE]: {
      schema: { type: 'object', properties: { filename: { type: 'string' }, content_type: { type: 'string' }, byte_size: { type: 'integer', minimum: 0 }, checksum: { type: 'string', description: 'MD5 of the bytes, base64.' } }, required: ['filename', 'content_type', 'byte_size', 'checksum'] },
      // A direct upload of a 5 KiB PNG: on S3-compatible storage the answer says where to PUT it.
      example: { filename: 'cover.png', content_type: 'image/png', byte_size: 5120, checksum: 'CY9rzUYh03PK3k6DJie09g==' },
    },
  },
};
