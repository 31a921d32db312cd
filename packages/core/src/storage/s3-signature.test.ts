import { describe, expect, it } from 'vitest';
import { presignS3Request, sha256Hex, signS3Request } from './s3-signature.js';

// The examples of AWS's "Signature Calculations for the Authorization Header" page for S3.
const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const now = new Date('2013-05-24T00:00:00Z');
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('signS3Request (AWS Signature Version 4)', () => {
  it('gives the signature AWS publishes for its GET Object example (with a Range header)', () => {
    const headers = signS3Request({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadSha256: sha256Hex(''),
      region: 'us-east-1',
      credentials,
      now,
    });
    expect(headers).toEqual({
      range: 'bytes=0-9',
      'x-amz-date': '20130524T000000Z',
      'x-amz-content-sha256': EMPTY,
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
  });

  it('gives the signature AWS publishes for its PUT Object example (a key with "$", a body, more headers)', () => {
    const body = 'Welcome to Amazon S3.';
    const headers = signS3Request({
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadSha256: sha256Hex(body),
      region: 'us-east-1',
      credentials,
      now,
    });
    expect(headers['x-amz-content-sha256']).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });

  it('gives the signature AWS publishes for its GET Bucket example (query parameters sorted by name)', () => {
    const headers = signS3Request({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J'),
      payloadSha256: EMPTY,
      region: 'us-east-1',
      credentials,
      now,
    });
    expect(headers.authorization).toMatch(/Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
  });

  it('signs a session token when the credentials carry one, and the host with its port', () => {
    const headers = signS3Request({
      method: 'GET',
      url: new URL('http://127.0.0.1:9000/bucket/abc'),
      payloadSha256: EMPTY,
      region: 'us-east-1',
      credentials: { ...credentials, sessionToken: 'token' },
      now,
    });
    expect(headers['x-amz-security-token']).toBe('token');
    expect(headers.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
    expect(headers).not.toHaveProperty('host');
  });

  it('presigns the URL AWS publishes for its query-string example (GET test.txt, 86400 s)', () => {
    const url = presignS3Request({ method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), expiresInSeconds: 86400, region: 'us-east-1', credentials, now });
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(url.searchParams.get('X-Amz-Signature')).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
  });
});
