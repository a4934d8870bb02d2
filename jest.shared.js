// Shared Jest settings. NestJS 12 and `jose` (required by @a2a-js/sdk's CommonJS build) are ESM-only; the
// test scripts run Jest on Node 24 with --experimental-vm-modules, which lets Jest's CommonJS runtime
// require() them natively, so node_modules needs no transform at all.
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  transformIgnorePatterns: ['/node_modules/'],
};
