import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * Words a viewer reads come from the message catalogs (issue 20: messages/<locale>.json, `m.some_id()` from
 * src/i18n), never from an English literal in a view or a chart: a JSX text, a text-bearing attribute or a
 * chart's `message` with two letters in a row is an error. Brand names, codes and formats are not words.
 */
const NOT_WORDS = String.raw`(?!\s*(?:Sine Bisaya|Maya|Visa|Mastercard|JCB|Amex|PHP|BISAYA30|MM\/YY|CVC|OTP|Facebook|Instagram|YouTube|TikTok|X)\s*$)`;
const ENGLISH_LITERALS = [
  { selector: String.raw`JSXText[value=/^${NOT_WORDS}[\s\S]*[A-Za-z]{2}/]`, message: 'Words a viewer reads come from the catalogs: m.some_id() (src/i18n).' },
  {
    selector: String.raw`JSXAttribute[name.name=/^(label|placeholder|title|alt|aria-label|aria-description|aria-roledescription|submitLabel|description|heading|legend)$/] > Literal[value=/^${NOT_WORDS}[\s\S]*[A-Za-z]{2}/]`,
    message: 'Words a viewer reads come from the catalogs: m.some_id() (src/i18n).',
  },
  { selector: String.raw`JSXExpressionContainer > Literal[value=/^${NOT_WORDS}[\s\S]*[A-Za-z]{2}/]`, message: 'Words a viewer reads come from the catalogs: m.some_id() (src/i18n).' },
];

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
      }, ...ENGLISH_LITERALS],
    },
  },
  {
    // A chart hands views catalog messages (src/machines/shared.ts `Text`), not English; its descriptions
    // and meta stay English for the diagrams.
    files: ['src/machines/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'Property[key.name="message"] > Literal[value=/[A-Za-z]{2}/]',
        message: 'A chart hands views catalog messages (m.some_id, src/i18n), not English.',
      }],
    },
  },
  {
    // What a connect or a formatter gives a view to show: no English sentence of its own.
    files: ['src/machines/**/*.connect.ts', 'src/machines/**/*.format.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'Literal[value=/[A-Za-z]{2,}[,.:;!?]? [A-Za-z]{2,}/]',
        message: 'Words a viewer reads come from the catalogs: m.some_id() (src/i18n).',
      }, {
        selector: 'TemplateElement[value.raw=/[A-Za-z]{2,}[,.:;!?]? [A-Za-z]{2,}/]',
        message: 'Words a viewer reads come from the catalogs: m.some_id({ ... }) (src/i18n).',
      }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
);
