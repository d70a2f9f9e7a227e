// Lint: typescript-eslint strict, and the rule that a service (its sources and its tests) never
// imports another service's code: what two services share lives in packages/shared.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const services = ['gateway', 'contacts', 'campaigns', 'events', 'automation', 'web', 'webhooks'];
/** Any import of another service's package. */
const foreignPackagesOf = (service) => `^@mailer/(${services.filter((other) => other !== service).join('|')})(/.*)?$`;

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
  ...services.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: foreignPackagesOf(service),
              message: "a service never imports another service's code; what two share belongs in packages/shared",
            },
            { group: services.filter((other) => other !== service).map((other) => `**/services/${other}/**`) },
          ],
        },
      ],
    },
  })),
  {
    // Plain-JS tooling (jest configs, scripts) runs on Node as it is.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
