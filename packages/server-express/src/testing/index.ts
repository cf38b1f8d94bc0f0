export {
  checkMatrixRow,
  clientAdmins,
  clientUsers,
  everyone,
  expectEveryRouteCovered,
  type MatrixRow,
  PERSONAS,
  type Persona,
  type Personas,
  platformAdminOnly,
  setUpPersonas,
  tenantAdmins,
} from './authorization-matrix.js';
export { COMPLETED_OUTCOME, ControlledEngine, CountingEngine, eventually } from './fake-engines.js';
export { type ApiResponse, type Credentials, cookiePair, TestApi } from './test-api.js';
export {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  startTestHost,
  TEST_USER_PASSWORD,
  type TestHost,
  type TestHostOptions,
} from './test-host.js';
