import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A running S3-compatible server and what a client needs to reach it. */
export interface TestS3Server {
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  close(): Promise<void>;
}

/**
 * Starts an S3-compatible server on 127.0.0.1 (s3rver, an npm dev dependency of this package,
 * so `npm install` brings it everywhere the suite runs) with one empty bucket, its objects in
 * a temporary folder removed on `close()`. s3rver checks the access key but not the V4
 * signature; the signing itself is checked against AWS's published examples.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'panel-s3rver-'));
  const bucket = 'panel-test';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
