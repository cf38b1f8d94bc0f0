import { defineConfig } from 'tsup';

export default defineConfig({
  // `./testing` (provider fakes reading their fixtures from src) is workspace-only test support.
  entry: { index: 'src/index.ts', 'utils/index': 'src/utils/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The CJS build needs `import.meta.url` too: token counting loads its tokenizer with createRequire.
  shims: true,
  tsconfig: 'tsconfig.build.json',
});
