export { testDatabaseKinds, testDatabaseUrl, openTestDatabase, countQueries, DEFAULT_DATABASE_URL } from './test-databases.js';
