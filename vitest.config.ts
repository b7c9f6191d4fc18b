import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['packages/shared/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'engine', include: ['packages/engine/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          // The repository's own scripts (scripts/) are tested with the server: both run on Node.
          include: ['packages/server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Server suites start PGlite databases and child processes; two cores run them best one file at a time.
          fileParallelism: false,
        },
      },
      {
        extends: './packages/web/vite.config.ts',
        test: {
          name: 'web',
          include: ['packages/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/src/test/setup.ts'],
          // Above the setup's wait for an element (10 s), so a missing element fails as such.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // One real server and one browser serve every file in turn; pages load in a real browser. A test
          // that walks many screens in several themes and languages takes minutes on a loaded machine.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // A page answers a click after a server round trip and a render; on a loaded machine that takes
          // longer than expect.poll's default second, so a poll waits up to ten before it fails.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
