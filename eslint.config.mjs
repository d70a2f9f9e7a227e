// Lint: typescript-eslint strict, and the rule that services never import each other's code, but
// for an entry a service publishes for another to host (its package.json `exports`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const services = ['gateway', 'contacts', 'campaigns', 'automation'];
// Contacts' public reads, answered in the gateway's process (docs/decisions.md, "Session 32").
const publishedEntries = {
  gateway: ['@mailer/contacts/public-reads', '@mailer/contacts/public-creates', '@mailer/contacts/event-contacts', '@mailer/automation/event-enrolments'],
  automation: ['@mailer/contacts/event-contacts'],
};
/** Any import of another service's package, but for the entries this service may host. */
const foreignImportsOf = (service) => {
  const others = services.filter((other) => other !== service).join('|');
  const allowed = (publishedEntries[service] ?? []).map((entry) => `(?!${entry}$)`).join('');
  return `^${allowed}@mailer/(${others})(/.*)?$`;
};

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
              regex: foreignImportsOf(service),
              message: "a service imports another service's code only through an entry that service publishes",
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
