// Flat ESLint configuration for every package. Type-aware rules are left out on purpose:
// `tsc` already checks types in `npm test`, and the untyped rules keep lint fast.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'artifacts/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['packages/engine/src/**/*.ts'],
    rules: {
      // The engine is deterministic: time and randomness arrive inside commands.
      'no-restricted-globals': ['error', 'Date', 'performance', 'setTimeout', 'setInterval', 'process'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The web app reaches the server only through src/data/ (HTTP calls, the socket, their types); screens
    // and components call the functions there. Tests stub the transport and are left out.
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: ['packages/web/src/data/**', 'packages/web/src/**/*.test.{ts,tsx}', 'packages/web/src/test/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
          name,
          message: 'Reach the server through a function in packages/web/src/data/.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].flatMap((property) =>
          ['window', 'globalThis', 'self'].map((object) => ({
            object,
            property,
            message: 'Reach the server through a function in packages/web/src/data/.',
          })),
        ),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'socket.io-client', message: 'The socket lives in packages/web/src/data/socket.ts.' },
          ],
          patterns: [
            {
              group: ['**/data/api.ts'],
              importNames: ['api', 'apiRaw', 'apiRequest', 'readEnvelope', 'buildApiUrl'],
              message: 'Put the call in a module of packages/web/src/data/ and import that function.',
            },
          ],
        },
      ],
    },
  },
);
