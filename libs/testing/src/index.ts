export { createTestDatabase, type TestDatabase } from './test-database';
export { startTestRedis, type TestRedis } from './test-redis';
export { freePort } from './free-port';
export { waitFor } from './wait-for';
export { databaseUrl, TEST_POSTGRES_URL, APP_ROLE } from './postgres-urls';
