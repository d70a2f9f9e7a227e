// Lint: typescript-eslint strict, the rule that a service (its sources and its tests) never imports
// another service's code (what two services share lives in packages/shared), and the rule that no
// runtime source imports the test kit (packages/testing).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const services = ['gateway', 'contacts', 'campaigns', 'events', 'automation', 'web', 'webhooks'];
/** Any import of another service's package. */
const foreignPackagesOf = (service) => `^@mailer/(${services.filter((other) => other !== service).join('|')})(/.*)?$`;
/** What a service may not import: another service's package or files. */
const boundaryOf = (service) => [
  { regex: foreignPackagesOf(service), message: "a service never imports another service's code; what two share belongs in packages/shared" },
  { group: services.filter((other) => other !== service).map((other) => `**/services/${other}/**`) },
];
/** The test kit is for tests and the benchmark: no runtime source imports it, so no image carries it. */
const NO_TEST_KIT = { regex: '^@mailer/testing(/.*)?$', message: 'runtime code never imports the test kit (packages/testing)' };

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Per service, its tests included; its runtime sources also never import the test kit.
  ...services.flatMap((service) => [
    { files: [`services/${service}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: boundaryOf(service) }] } },
    { files: [`services/${service}/src/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [...boundaryOf(service), NO_TEST_KIT] }] } },
  ]),
  { files: ['packages/shared/src/**/*.ts', 'packages/client/src/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_KIT] }] } },
  {
    // Plain-JS tooling (jest configs, scripts) runs on Node as it is.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
