/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/sandbox'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	setupFiles: ['<rootDir>/test/setup/env.cjs'],
	testTimeout: 30000,
	// Most of the run's time is suites waiting on the sandbox's rate-limit windows, not on the processor: on 2 cores
	// jest's default (one worker per core but one) would run them one after another.
	maxWorkers: 4,
	testSequencer: '<rootDir>/test/setup/sequencer.cjs',
};
