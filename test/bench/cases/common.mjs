// What the bench's cases share: the goals each row's median must meet, the rate limits the sandbox enforces, how a
// side of a case is repeated in alternating order, and how the HTTP Request node's spacing is found.
import { alternated, doing, limitedForUser, runOnce, say, summary, wire } from '../harness.mjs';

const atMost = (value) => ({ op: '<=', value });
const atLeast = (value) => ({ op: '>=', value });
const exactly = (value) => ({ op: '==', value });
const below = (value) => ({ op: '<', value });
/** Every goal, by row: every repetition of the row must meet it. */
export const GOALS = {
	'1a': atMost(1.03),
	'1b': atMost(0.7),
	'1c': exactly(0),
	'2a': atMost(1.1),
	'3a': atMost(1.03),
	'3f': atMost(0.5),
	// CPU per item against n8n's HTTP Request node: the bound set for a node whose requests RoutingNode builds.
	'3c': atMost(1.25),
	'3d': atMost(1.25),
	'4a': atMost(1.1),
	'4b': atMost(1.0),
	'4c': atMost(1.2),
	'5a': atLeast(0.9),
	'6b': below(300),
	// Case 7: workers sharing one account: together at least 0.9 of its limit, at most one in three answered 429.
	'7a': atLeast(0.9),
	'7b': atMost(100 / 3),
	'7c': atLeast(0.9),
	'7d': atMost(100 / 3),
	'7e': atLeast(0.9),
	'7f': atMost(100 / 3),
	'7g': atLeast(0.9),
	'7h': atMost(100 / 3),
};

export const DOCUMENTED = { perSecond: 10, perMinute: 60 };
export const UPDATE_LIMITS = { perSecond: 10, perMinute: 600 };

/** The Stora credential's Rate Limit as the README tells a user to set it for a plan (0: no limit of that kind). */
export const rateLimit = (perSecond, perMinute) => ({
	rateLimit: 'custom',
	requestsPerSecond: perSecond,
	requestsPerMinute: perMinute,
});
export const NO_RATE_LIMIT = rateLimit(0, 0);

/** The median of the repetitions that produced a value. */
export const typical = (values) => summary(values).median;
export const ratios = (a, b) => a.map((x, k) => x / b[k]);

/**
 * The HTTP Request node's spacing, found as a careful user finds it: the smallest candidate first, the next one when a
 * run fails (a 429 stops the node). Runs at a setting that later failed are done again at the one kept.
 */
export class Spacing {
	constructor(candidates) {
		this.candidates = candidates;
		this.index = 0;
		this.log = [];
	}

	get current() {
		return this.candidates[this.index];
	}

	/** Runs `attempt(setting)` until a setting holds or none is left; returns the last run (with its `setting`). */
	async run(attempt) {
		for (;;) {
			const setting = this.current;
			const run = await attempt(setting);
			run.setting = setting;
			if (run.ok) return run;
			this.log.push(`${setting} ms failed (${run.failure})`);
			say(`HTTP Request node at ${setting} ms failed: ${run.failure}`);
			if (this.index + 1 >= this.candidates.length) return run;
			this.index++;
		}
	}

	text(unit = 'ms') {
		const tried = this.candidates.slice(0, this.index + 1).join(', ');
		return `candidates tried: ${tried} ${unit}${this.log.length ? ` (${this.log.join('; ')})` : ''}; kept: ${this.current} ${unit}`;
	}
}

/** Runs `sides[S|R](k)` in the alternating order; returns the runs of each side by repetition. */
async function repeat(reps, sides) {
	const out = { S: [], R: [] };
	for (const [k, order] of alternated(reps).entries()) {
		for (const side of order) out[side][k] = await sides[side](k);
	}
	return out;
}

/**
 * Both sides of a rate-limited case in the alternating order, the HTTP Request node's spacing found on the way; HTTP
 * runs at a setting the spacing later left behind are done again at the one kept (after the others).
 */
export async function bothSides(reps, spacing, storaRun, httpAttempt) {
	const httpRun = async (k) => await spacing.run(httpAttempt(k));
	const { S: stora, R: http } = await repeat(reps, { S: storaRun, R: httpRun });
	for (const [k, run] of http.entries()) {
		if (run.setting !== spacing.current) http[k] = await httpRun(k);
	}
	return { stora, http };
}

/** Runs a published workflow with the sandbox's request log cleared first; the run carries what the sandbox saw. */
export async function onTheWire(n8n, sandbox, flow, label, options) {
	doing(label);
	await sandbox.control.clearRequests();
	const run = await runOnce(n8n, flow, options);
	run.wire = await wire(sandbox.control);
	run.user429 = limitedForUser(run);
	return run;
}
