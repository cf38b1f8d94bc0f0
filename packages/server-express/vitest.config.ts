import { marginProject } from '../../vitest.shared.js';

export default marginProject('server-express');
