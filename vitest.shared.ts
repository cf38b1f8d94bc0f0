import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `@margin/source` export
// condition, so tests never need a build first. The rest are Vite's SSR defaults.
const conditions = ['@margin/source', 'module', 'node', 'development|production'];

export function marginProject(name: string, test: UserWorkspaceConfig['test'] = {}): UserWorkspaceConfig {
  return defineProject({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: { name, include: ['src/**/*.test.ts'], ...test },
  });
}
