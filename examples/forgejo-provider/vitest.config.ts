import { marginProject } from '../../vitest.shared.js';

export default marginProject('example-forgejo-provider');
