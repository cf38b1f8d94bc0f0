import { marginProject } from '../../vitest.shared.js';

export default marginProject('example-ci-review', { testTimeout: 60_000 });
