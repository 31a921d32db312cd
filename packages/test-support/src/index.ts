export { testDatabaseKinds, testDatabaseUrl, openTestDatabase, countQueries, DEFAULT_DATABASE_URL } from './test-databases.js';
export { startS3Server, type TestS3Server } from './s3-server.js';
export { pgliteSnapshot, PGLITE_SNAPSHOT_FILE } from './pglite-snapshot.js';
