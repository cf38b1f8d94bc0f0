import { marginProject } from '../../vitest.shared.js';

export default marginProject('sdk-client');
