export { testDatabaseKinds, testDatabaseUrl, testStatementCache, openTestDatabase, createTestSchema, type TestSchema, countQueries, DEFAULT_DATABASE_URL } from './test-databases.js';
export { startS3Server, type TestS3Server } from './s3-server.js';
export { startTcpFaultProxy, type TcpFaultProxy, type ProxyMode } from './tcp-fault-proxy.js';
export { startPrivatePostgres, postgresBinDir, type PrivatePostgres, type PrivatePostgresOptions } from './private-postgres.js';
export { pgliteSnapshot, PGLITE_SNAPSHOT_FILE } from './pglite-snapshot.js';
export { openApiResponseChecker, type CheckedResponse } from './openapi-response-check.js';
export { freePort } from './free-port.js';
export { ensureTool, acceptsConnections } from './tools.js';
