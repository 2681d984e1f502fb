import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/i18n/paraglide', 'src/i18n/static', '.data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // One way for a view to bind to a machine: useConnect with the flow's connect (views/useFlow.ts).
    files: ['src/views/**/*.{ts,tsx}'],
    ignores: ['src/views/useFlow.ts', 'src/views/useUrlProjection.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: '@xstate/react', message: 'Bind a view to its flow with useFlow and useConnect (src/views/useFlow.ts).' }],
      }],
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name='getSnapshot']",
        message: "A view renders what its flow's connect returns; it does not read snapshots.",
      }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
);
