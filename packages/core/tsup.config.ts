import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    spec: 'src/spec.ts',
    schemas: 'src/schemas.ts',
    memory: 'src/memory.ts',
    'testing/index': 'src/testing/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['vitest'],
  tsconfig: 'tsconfig.build.json',
});
