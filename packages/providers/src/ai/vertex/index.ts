export type { GoogleAuth } from './vertex-connection.js';
export { createVertexKind } from './vertex-kind.js';
