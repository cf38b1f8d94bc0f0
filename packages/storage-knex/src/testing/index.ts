export {
  createTestDatabase,
  openTestStorage,
  TEST_PG_URL,
  type TestDatabase,
  type TestDialect,
  testDialects,
} from './test-databases.js';
