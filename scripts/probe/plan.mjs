/**
 * What a run will do, said before its first request (and all `--plan` does): about how many requests, how long at
 * the pace, what share of the account's documented budget, that one request carries a wrong token on purpose, and
 * with `--write` what it creates and which events that fires at the account's other endpoints. The writes go ahead
 * only with `--yes` or a typed yes on a terminal.
 */
import { createInterface } from 'node:readline/promises';

import { parametersOf } from './lists.mjs';
import { PROBE_EVENT_TYPES } from './writes.mjs';

const DOCUMENTED_PER_MINUTE = 60;

/** About how many requests a run makes (more when other clients' writes make it read a list again, or on a 429). */
export function estimate(options) {
	let requests = 2; // token info, and the deliberate 401
	for (const list of options.lists) {
		const parameters = parametersOf(list);
		// One read without anything, then per parameter its read and a read without it again; ASC and DESC both.
		requests += 1 + parameters.length * 2 + (parameters.includes('sort_direction') ? 1 : 0);
		if (list.path === 'unit_allocations') requests += 4; // an ID filter tried with a real ID, then a made-up one
		if (list.path === 'units') requests += 3; // status=overlock
	}
	requests += 3 + 1; // a 404, another 404, a 422; a metadata key of 255 characters
	if (options.write) requests += 5 + (options.webhookUrl ? 3 : 0);
	const { perSecond, perMinute } = options.rate;
	const seconds = Math.ceil(Math.max(requests / perSecond, ((requests - perMinute) / perMinute) * 60));
	return { requests, seconds, share: perMinute / DOCUMENTED_PER_MINUTE };
}

const duration = (seconds) => (seconds < 90 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`);

/** The lines said before the first request. */
export function announce(options, { requests, seconds, share }) {
	const { perSecond, perMinute } = options.rate;
	const lines = [
		`npm run probe: ${options.baseUrl}, ${options.lists.length} list(s), ${options.write ? 'reads and writes' : 'reads only (GET): nothing on the account changes'}.`,
		`About ${requests} requests (more if other clients write meanwhile or a 429 comes), at ${perSecond}/s and ${perMinute}/min: about ${duration(seconds)}, ${Math.round(share * 100)}% of the documented budget (10/s, 60/min per account), which the account's other apps and workflows share meanwhile (--pace changes it).`,
		'One request is sent with a made-up token on purpose, to see what a 401 looks like; it may show in the account\'s logs.',
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
			? [`  - register a temporary webhook endpoint at --webhook-url, subscribed to ${PROBE_EVENT_TYPES.join(', ')} only (the event it causes itself; any other contact created meanwhile also reaches it and is dropped unread), then delete it;`]
			: []),
		'  - anything it cannot remove is listed at the top of the report with its ID and how to remove it.',
	];
}

/** `--yes`, or a typed yes on a terminal; false (the run stops before any request) otherwise. */
export async function confirmWrites(options, io, log) {
	if (options.yes) return true;
	if (!io.stdin?.isTTY) {
		log('--write changes the account: add --yes to go ahead, or run it on a terminal to be asked (nothing was sent).');
		return false;
	}
	const ask = createInterface({ input: io.stdin, output: io.stderr });
	// The end of input (Ctrl-D) closes the interface without answering the question: no answer, no writes.
	const closed = new Promise((resolve) => ask.once('close', () => resolve(undefined)));
	try {
		const answer = await Promise.race([ask.question('Go ahead with these writes? Type yes: '), closed]);
		if (answer?.trim().toLowerCase() === 'yes') return true;
		log('Not confirmed: nothing was sent.');
		return false;
	} finally {
		ask.close();
	}
}
