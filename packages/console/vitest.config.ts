import { marginProject } from '../../vitest.shared.js';

// The browser suite drives Chromium against a real host, so it gets room for a build and a review.
export default marginProject('console', {
  include: ['src/**/*.test.ts', 'e2e/**/*.e2e.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
});
