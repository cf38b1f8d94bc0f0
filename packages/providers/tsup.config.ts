import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'utils/index': 'src/utils/index.ts',
    // The fakes' fixtures are JSON imports, bundled by esbuild's json loader: no source path is read.
    'testing/index': 'src/testing/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The CJS build needs `import.meta.url` too: token counting loads its tokenizer with createRequire.
  shims: true,
  external: ['vitest'],
  tsconfig: 'tsconfig.build.json',
});
