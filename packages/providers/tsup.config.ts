import { defineConfig } from 'tsup';

export default defineConfig({
  // `./testing` (provider fakes reading their fixtures from src) is workspace-only test support.
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
