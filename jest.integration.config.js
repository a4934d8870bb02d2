// Integration and end-to-end tiers: a real Nest app on port 0 against scripted A2A servers in their own processes.
module.exports = {
  ...require('./jest.shared'),
  rootDir: '.',
  roots: ['<rootDir>/test'],
  testRegex: '\\.(int|e2e)-spec\\.ts$',
  // Closes what a test file left open (a setup that failed halfway) once the file has finished.
  testEnvironment: '<rootDir>/test/support/closing-environment.js',
  testTimeout: 30000,
  // The demo build's registration of the embedded demo kernel (IAC_CODE_AGUI_UPSTREAM=demo).
  setupFiles: ['<rootDir>/src/demo-kernel/with-demo-kernel.ts'],
  reporters: ['default', ['<rootDir>/test/support/plain-summary-reporter.js', { tier: 'integration' }]],
};
