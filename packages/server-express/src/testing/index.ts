export { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost, type TestHostOptions } from './test-host.js';
