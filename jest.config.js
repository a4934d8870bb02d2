// Unit tier: *.spec.ts next to the code, pure or with fakes; no sockets, no child processes.
module.exports = {
  ...require('./jest.shared'),
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/bench'],
  testRegex: '\\.spec\\.ts$',
  reporters: ['default', ['<rootDir>/test/support/plain-summary-reporter.js', { tier: 'unit' }]],
};
