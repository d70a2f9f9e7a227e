// Lint: typescript-eslint strict, and the rule that services never import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const services = ['gateway', 'contacts', 'campaigns', 'automation'];

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
          patterns: services
            .filter((other) => other !== service)
            .flatMap((other) => [`@mailer/${other}`, `@mailer/${other}/*`, `**/services/${other}/**`]),
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
