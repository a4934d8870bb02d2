// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '*.js', '*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only src/config reads the environment (docs/architecture.md, module map).
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through AppConfig (src/config).' },
      ],
    },
  },
  // A host application (examples/) reads its own environment: the rule guards the gateway's src/.
  {
    files: ['src/config/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
