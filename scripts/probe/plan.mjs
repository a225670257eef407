/**
 * What a run will do, said before its first request (and all `--plan` does): the most requests it makes (and how
 * many more where other clients' writes make it read again), how long its pacer takes for them, what share of the
 * account's documented budget that is, that one request carries a wrong token on purpose, and with `--write` what it
 * creates and which events that fires at the account's other endpoints. The writes go ahead only with `--yes` or a
 * typed yes on a terminal.
 */
import { createInterface } from 'node:readline/promises';

import { createPacer } from './http.mjs';
import { NOT_ON_RECORD, parametersOf } from './lists.mjs';
import { PROBE_EVENT_TYPES } from './writes.mjs';

const DOCUMENTED_PER_MINUTE = 60;

/**
 * The most requests a run makes while the account is quiet (no other client writes, every answer comes, no 429),
 * `requests`, and how many more if another client's writes make every parameter be read again once, `rereads`
 * (a 429 is asked again up to 3 times on top). `seconds`: about how long `requests` take at the pace.
 */
export async function estimate(options) {
	let requests = 2; // token info, and the deliberate 401
	let rereads = 0;
	for (const list of options.lists) {
		const parameters = parametersOf(list);
		// An ID filter whose records do not carry it: a real ID, then (when that tells nothing) a made-up one.
		const twice = parameters.filter(
			(parameter) => NOT_ON_RECORD[list.resource]?.[parameter],
		).length;
		// One read without anything, then per parameter its read and a read without it again; ASC and DESC both.
		const reads =
			parameters.length * 2 + (parameters.includes('sort_direction') ? 1 : 0) + twice * 2;
		requests += 1 + reads;
		rereads += reads;
		if (list.path === 'units') {
			// status=overlock: the list, with it, and again.
			requests += 3;
			rereads += 2;
		}
	}
	requests += 3 + 1; // a 404, another 404, a 422; a metadata key of 255 characters
	// A contact created (again with a UUID where the long key is refused), its replay, this run's tag looked up, and
	// up to two contacts deleted; an endpoint created, deleted (or disabled where it cannot be).
	if (options.write) requests += 6 + (options.webhookUrl ? 3 : 0);
	return {
		requests,
		rereads,
		seconds: await pacedSeconds(options.rate, requests),
		share: options.rate.perMinute / DOCUMENTED_PER_MINUTE,
	};
}

/** How long the probe's own pacer takes to let `count` requests through at `rate`, on a simulated clock (answers instant). */
async function pacedSeconds(rate, count) {
	let now = 0;
	const pacer = createPacer(rate, { now: () => now, sleep: async (ms) => void (now += ms) });
	for (let index = 0; index < count; index++) {
		await pacer.acquire();
		if (index < count - 1) pacer.release();
	}
	return Math.ceil(now / 1000);
}

const duration = (seconds) =>
	seconds < 90 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;

/** The lines said before the first request. */
export function announce(options, { requests, rereads, seconds, share }) {
	const { perSecond, perMinute } = options.rate;
	const lines = [
		`npm run probe: ${options.baseUrl}, ${options.lists.length} list(s), ${options.write ? 'reads and writes' : 'reads only (GET): nothing on the account changes'}.`,
		`At most ${requests} requests while no other client writes (up to ${requests + rereads} where other clients' writes make each parameter be read again once; a 429 is asked again up to 3 times), at ${perSecond}/s and ${perMinute}/min: about ${duration(seconds)}, ${Math.round(share * 100)}% of the documented budget (10/s, 60/min per account), which the account's other apps and workflows share meanwhile (--pace changes it).`,
		"One request is sent with a made-up token on purpose, to see what a 401 looks like; it may show in the account's logs.",
	];
	if (options.write) lines.push(...writePlan(options));
	return lines.join('\n');
}

/** What `--write` creates, and what that fires elsewhere on the account. */
export function writePlan(options) {
	return [
		'With --write it will:',
		'  - create one contact (full name "Stora probe (deleted again)", an example.com address, metadata stora_probe=<this run>), send the same request again with the same Idempotency-Key, and delete every contact it made;',
		'  - this fires contact.created (once, or twice if the key is not replayed) at EVERY webhook endpoint on the account subscribed to it, production Stora Triggers included; what deleting a contact fires is not documented;',
		...(options.webhookUrl
			? [
					`  - register a temporary webhook endpoint at --webhook-url, subscribed to ${PROBE_EVENT_TYPES.join(', ')} only (the event it causes itself; any other contact created meanwhile also reaches it and is dropped unread), then delete it;`,
				]
			: []),
		'  - anything it cannot remove is listed at the top of the report with its ID and how to remove it.',
	];
}

/** `--yes`, or a typed yes on a terminal; false (the run stops before any request) otherwise. */
export async function confirmWrites(options, io, log) {
	if (options.yes) return true;
	if (!io.stdin?.isTTY) {
		log(
			'--write changes the account: add --yes to go ahead, or run it on a terminal to be asked (nothing was sent).',
		);
		return false;
	}
	const ask = createInterface({ input: io.stdin, output: io.stderr });
	// The end of input (Ctrl-D) closes the interface without answering the question: no answer, no writes.
	const closed = new Promise((resolve) => ask.once('close', () => resolve(undefined)));
	try {
		const answer = await Promise.race([
			ask.question('Go ahead with these writes? Type yes: '),
			closed,
		]);
		if (answer?.trim().toLowerCase() === 'yes') return true;
		log('Not confirmed: nothing was sent.');
		return false;
	} finally {
		ask.close();
	}
}
