// Shared Jest settings. NestJS 12 and `jose` (required by @a2a-js/sdk's CommonJS build) are ESM-only; the
// test scripts run Jest on Node 24 with --experimental-vm-modules, which lets Jest's CommonJS runtime
// require() them natively, so node_modules needs no transform at all.
module.exports = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The client's sources name their relative imports by the built file (`./x.js`), as its ESM build needs.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  transformIgnorePatterns: ['/node_modules/'],
};
