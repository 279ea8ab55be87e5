/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  // Examples import the package by name, as its users do.
  moduleNameMapper: { '^split-sandbox$': '<rootDir>/src/index.ts' },
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testTimeout: 20000,
  // Every supertest answer is checked against the OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/setup/conformance.ts'],
};
