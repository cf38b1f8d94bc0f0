import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console bundles @margin/sdk-client from its TypeScript sources (the `@margin/source`
// condition), so building it never waits for the SDK's own build.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['@margin/source', 'module', 'browser', 'development|production'] },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  // `pnpm --filter @margin/console dev` against a gateway on :8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080' } },
});
