// Jest's own order (the slowest first, from its cache of the last run's times), except that the suites below start
// first when there is no such cache, as in a fresh clone or CI: they wait on rate-limit windows for a minute or more
// (measured one at a time on 2 cores), and started last they would hold the run open after the others are done.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Longest first. A suite missing from this list only starts later; test/house.test.ts checks each one exists. */
const LONG = [
	'test/nodes/reliability.test.ts',
	'test/nodes/transport/credentialRateLimit.test.ts',
	'test/probe/probeNoise.test.ts',
	'test/nodes/faultMatrix.test.ts',
	'test/probe/probeRateLimit.test.ts',
];

class LongFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		if (sorted.some((test) => test.duration != null)) return sorted;
		const rank = (test) => {
			const index = LONG.indexOf(
				path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/'),
			);
			return index === -1 ? LONG.length : index;
		};
		// Array.prototype.sort is stable: the rest keeps jest's order (largest file first).
		return sorted.sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = LongFirst;
module.exports.LONG = LONG;
