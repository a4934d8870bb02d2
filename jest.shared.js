// Shared Jest settings. `@a2a-js/sdk`'s CommonJS build require()s the ESM-only `jose`; Jest's CommonJS
// runtime cannot load it, so jose's own .js files are transformed by ts-jest (allowJs) as well.
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    '/node_modules/jose/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2023' }, isolatedModules: true },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
