import { availableParallelism } from 'node:os';

/**
 * Jest runs the TypeScript sources as ESM through ts-jest (type-checking is `npm run typecheck`).
 * Workers: Jest's default, one per core but one, is a single worker on a 2-core runner, and most
 * suites wait on child processes (the built action, git, bash) and on loopback fakes, so one core
 * stays idle. Two workers there roughly halve the wall time; the tests already hold on a loaded machine.
 */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testTimeout: 60000
};
