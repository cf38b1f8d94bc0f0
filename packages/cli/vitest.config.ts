import { marginProject } from '../../vitest.shared.js';

export default marginProject('cli');
