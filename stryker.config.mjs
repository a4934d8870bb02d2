// Mutation testing of the run engine's stateful folders (`npm run test:mutation`, CONTRIBUTING.md#mutation-testing).
// Not part of `npm test`: a full run takes hours on two cores; the incremental file makes the next one re-test
// only the mutants whose code or covering specs changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  // The unit tier as `npm run test:unit` runs it. Each mutant runs only the specs that import its file
  // (Jest's --findRelatedTests) and, of those, the tests that reached it in the first run (perTest).
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    // The specs reach the code through test/support (engine-run.ts): Jest follows imports only inside its roots.
    config: {
      roots: ['<rootDir>/src', '<rootDir>/bench', '<rootDir>/test/support'],
      // Transpile only: a mutant is type-checked once by the TypeScript checker below, not again per spec run.
      // ts-jest transpiles file by file when the compiler options say isolatedModules (its own option of that
      // name is deprecated); an object here is merged over the tsconfig.json it finds at the root.
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true } }] },
    },
  },
  coverageAnalysis: 'perTest',
  // NestJS 12 is ESM-only: Jest's CommonJS runtime requires it natively only with this flag (jest.shared.js).
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  mutate: [
    'src/runs/**/*.ts',
    'src/run-log/**/*.ts',
    'src/threads/**/*.ts',
    'src/interrupts/**/*.ts',
    '!src/**/*.spec.ts',
  ],
  ignorePatterns: ['dist', 'coverage', '.state', 'test/artifacts', '.kernel-venv', '.test-build-*'],
  incremental: true,
  // reports/ is gitignored: a fresh clone makes a full run first, then each run is incremental.
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['progress', 'clear-text', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The first run is the whole unit tier with coverage; on a loaded machine it can take a while.
  dryRunTimeoutMinutes: 30,
  // A mutant that loops is cut off after this much more than its specs' normal time. Generous: on a loaded
  // machine a slow run of a killable mutant must not pass for a timeout (which counts as killed).
  timeoutFactor: 3,
  timeoutMS: 30000,
  thresholds: { high: 90, low: 75, break: null },
};
