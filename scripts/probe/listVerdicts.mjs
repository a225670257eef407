/**
 * Per list and per parameter the node sends: honoured, ignored or refused, told by comparing answers, never by a
 * status code alone. The list is read without the parameter, then with it set to a value taken from the records
 * (values.mjs) that an honouring API must answer differently to, then without it again: judge.mjs decides from what
 * no concurrent write can explain (other clients write while the probe runs), and says `unknown` with the reason
 * where the data cannot tell. The read after one parameter is the read before the next.
 *
 *   refused   a 4xx (not a 429) whose error names the parameter (a detail's pointer, or its message)
 *   ignored   the records that stayed unchanged came back as without it, including ones it excludes
 *   honoured  the answer changed the way the parameter says, in a way no other client's write explains
 *   unknown   too few records or values to tell, the list changed under the probe, a 429, or an answer that fits neither
 */
import { isDocumented, parametersOf } from './lists.mjs';
import {
	compareBaselines,
	countOf,
	errorLine,
	judgeAnswer,
	judgeDirection,
	judgeSort,
	namesParameter,
	recordsOf,
	statusVerdict,
} from './judge.mjs';
import { whereOfParameter } from './points.mjs';
import { chooseTest, fallbackOf, kindOf, refId } from './values.mjs';

export { errorLine, namesParameter, recordsOf };

const V = '/2025-09';
/** Fields a list's own order may follow, in the order they are tried when describing it. */
const orderFieldsOf = (list) => [
	...new Set(['created_at', 'updated_at', ...list.sortBy, 'position', 'name']),
];

const pointId = (list, parameter) => `GET ${V}/${list.path}?${parameter}`;
/** The docs: expanding a reference needs its resource's read scope, so a 403 there is an answer, not a reason to stop. */
const expected403 = (parameter) => (parameter === 'expand' ? [403] : []);
/** Read again when the two reads without it disagree (another client wrote): at most this many tries per parameter. */
const TRIES = 2;

/** Every ID a sample shows (its records' and their references'), for ID filters tried with real IDs first. */
export function idsIn(records) {
	const found = new Set();
	for (const record of records ?? []) {
		if (record?.id !== undefined) found.add(String(record.id));
		for (const value of Object.values(record ?? {})) {
			const id = refId(Array.isArray(value) ? value[0] : value);
			if (id !== undefined && /^[a-z]+_\w+$/.test(id)) found.add(id);
		}
	}
	return found;
}

/**
 * Reads with `queries` (one or two), then the list without them; again, up to TRIES, while the reads without it
 * disagree (or, with `sameCount`, the lists' counts differ: page 2). `before`: `{records, count}` of the read before.
 * Returns `{before, answers, after, afterAnswer, counts, next}`: `after` undefined when that read failed; `counts`
 * the `meta.pagination.count` of the read before, each answer and the read after; `next` the read after as the next
 * parameter's read before.
 */
async function readAround(
	client,
	list,
	sampleSize,
	before,
	queries,
	expect,
	{ sameCount = false } = {},
) {
	let current = before;
	let result;
	for (let attempt = 0; attempt < TRIES; attempt++) {
		const answers = [];
		for (const query of queries)
			answers.push(
				await client.request('GET', `${V}/${list.path}`, {
					query: { limit: sampleSize, ...query },
					expect,
				}),
			);
		const again = await client.request('GET', `${V}/${list.path}`, {
			query: { limit: sampleSize },
		});
		const after = again.status === 200 ? recordsOf(again.json) : undefined;
		const counts = [
			current.count,
			...answers.map((answer) => countOf(answer.json)),
			countOf(again.json),
		];
		const next = after ? { records: after, count: countOf(again.json) } : current;
		result = { before: current.records, answers, after, afterAnswer: again, counts, next };
		// An answer that is no list (an error, a 429) is judged by its status: reading again would not change that.
		if (!after || answers.some((answer) => statusVerdict(answer, 'x'))) return result;
		if (compareBaselines(current.records, after).agree && (!sameCount || new Set(counts).size <= 1))
			return result;
		current = next;
	}
	return result;
}

/**
 * Asks `list` without and with each parameter the node sends; returns its points, the sample (for the fields
 * check) and the IDs seen. `scopes`: the token's, or undefined when token info did not say. `knownIds`: IDs seen in
 * lists read before (real values for ID filters whose records do not carry the field).
 */
export async function probeList(
	client,
	list,
	{ sampleSize, scopes, knownIds = [], log = () => {} },
) {
	const parameters = parametersOf(list);
	const documented = (parameter) =>
		isDocumented(list, parameter) ? 'documented' : 'not in the docs';
	const point = (parameter, verdict, evidence) => ({
		id: pointId(list, parameter),
		verdict,
		evidence: `(${documented(parameter)}) ${evidence}`,
		where: whereOfParameter(list, parameter),
	});
	if (scopes && !scopes.includes(list.scope)) {
		return {
			points: parameters.map((parameter) =>
				point(parameter, 'unknown', `not asked: the token lacks ${list.scope}`),
			),
			sample: undefined,
		};
	}
	log(`${V}/${list.path}: ${parameters.length} parameters`);
	const baseline = await client.request('GET', `${V}/${list.path}`, {
		query: { limit: sampleSize },
	});
	const sample = baseline.status === 200 ? recordsOf(baseline.json) : undefined;
	if (!sample) {
		const why = `not asked: the list itself answered ${errorLine(baseline)}`;
		return {
			points: parameters.map((parameter) => point(parameter, 'unknown', why)),
			sample: undefined,
		};
	}
	const points = [];
	// The read before the next parameter (the read after the last one), with its count.
	let last = { records: sample, count: countOf(baseline.json) };
	for (const parameter of parameters) {
		const test = chooseTest(list, parameter, last.records, { scopes, knownIds: [...knownIds] });
		if (test.unknown) {
			points.push(
				point(
					parameter,
					...(await fallback(
						client,
						list,
						parameter,
						last.records,
						sampleSize,
						scopes,
						test.unknown,
					)),
				),
			);
			continue;
		}
		const sent = Object.keys(test.query)[0];
		if (test.expect === 'direction') {
			const read = await readAround(
				client,
				list,
				sampleSize,
				last,
				[{ sort_direction: 'ASC' }, { sort_direction: 'DESC' }],
				[],
			);
			const { verdict, evidence } = read.after
				? judgeDirection(
						read.before,
						read.answers[0],
						read.answers[1],
						read.after,
						sampleSize,
						orderFieldsOf(list),
					)
				: unread(read, read.answers);
			points.push(point(parameter, verdict, `sent sort_direction=ASC, then DESC: ${evidence}`));
			last = read.next;
			continue;
		}
		const read = await readAround(
			client,
			list,
			sampleSize,
			last,
			[test.query],
			expected403(parameter),
			{ sameCount: test.expect === 'page' },
		);
		let { verdict, evidence } = !read.after
			? unread(read, read.answers)
			: test.expect === 'order'
				? judgeSort(
						test,
						read.before,
						read.answers[0],
						read.after,
						sent,
						sampleSize,
						orderFieldsOf(list),
					)
				: judgeAnswer(
						test,
						read.before,
						read.answers[0],
						read.after,
						sent,
						sampleSize,
						read.counts,
					);
		evidence = `sent ${sent}=${test.shown}: ${evidence}`;
		last = read.next;
		if (test.then && verdict === 'unknown' && read.after) {
			// A real ID told nothing (or was refused for its value?): then an ID that matches nothing.
			const made = await readAround(client, list, sampleSize, last, [test.then.query], []);
			const second = made.after
				? judgeAnswer(test.then, made.before, made.answers[0], made.after, sent, sampleSize)
				: unread(made, made.answers);
			const realAccepted = read.answers[0].status === 200;
			if (second.verdict === 'refused' && realAccepted) second.verdict = 'unknown';
			verdict = second.verdict;
			evidence += `; then sent ${sent}=${test.then.shown}: ${second.evidence}${second.verdict === 'unknown' && realAccepted && made.answers[0].status >= 400 ? ' (the real ID was taken: this refusal is of the value; it checks IDs)' : ''}`;
			last = made.next;
		} else if (test.noRealId && verdict === 'refused') {
			verdict = 'unknown';
			evidence += `: a made-up ID may be refused for its value alone (an API that checks IDs exist); ${test.noRealId}: probe a list holding such IDs first (--lists) to decide`;
		}
		points.push(point(parameter, verdict, evidence));
	}
	return { points, sample, ids: idsIn([...sample, ...last.records]) };
}

/** The verdict when the read after failed: its status, or the parameter's own answer's. */
function unread(read, answers) {
	for (const answer of answers) {
		const status = statusVerdict(answer, 'the parameter');
		if (status) return status;
	}
	return {
		verdict: 'unknown',
		evidence: `the list without it could not be read again (${errorLine(read.afterAnswer)}), so what changed meanwhile is not known`,
	};
}

/**
 * Where no value can tell honoured from ignored, a plausible one is still sent: an error naming the parameter (not a
 * 429) settles "refused" all the same.
 */
async function fallback(client, list, parameter, sample, sampleSize, scopes, why) {
	const value = fallbackOf(list, parameter, sample, scopes);
	if (!value) return ['unknown', why];
	const sent = Object.keys(value)[0];
	const answer = await client.request('GET', `${V}/${list.path}`, {
		query: { limit: sampleSize, ...value },
		expect: expected403(parameter),
	});
	const status = statusVerdict(answer, sent);
	const refused =
		status?.verdict === 'refused' && kindOf(list.resource, parameter) !== 'absentReference';
	const shown = ['equals', 'reference'].includes(kindOf(list.resource, parameter))
		? `${sent}=${value[sent]}`
		: sent;
	return [
		refused ? 'refused' : 'unknown',
		`${why}; sent ${shown} anyway: ${status ? status.evidence : `answered ${answer.status}`}`,
	];
}

/** `status=overlock` on units: the docs' filter spelling for units whose status reads `overlocked` (VALUE_ALIASES). */
export async function probeOverlockAlias(client, sampleSize) {
	const id = `GET ${V}/units?status=overlock`;
	const where = 'nodes/Stora/transport/listFilters.ts (VALUE_ALIASES)';
	const baseline = await client.request('GET', `${V}/units`, { query: { limit: sampleSize } });
	const sample = recordsOf(baseline.json);
	if (!sample)
		return {
			id,
			verdict: 'unknown',
			evidence: `the units list answered ${errorLine(baseline)}`,
			where,
		};
	const read = await readAround(
		client,
		{ path: 'units' },
		sampleSize,
		{ records: sample, count: countOf(baseline.json) },
		[{ status: 'overlock' }],
		[],
	);
	const overlocked = (record) => record.status === 'overlocked' || record.status === 'overlock';
	const test = {
		expect: 'subset',
		test: (record) => (record.status === undefined ? undefined : overlocked(record)),
	};
	const judged = read.after
		? judgeAnswer(test, read.before, read.answers[0], read.after, 'status', sampleSize)
		: unread(read, read.answers);
	const records = recordsOf(read.answers[0].json) ?? [];
	const statuses = [...new Set(records.map((record) => record.status))];
	// Honoured as a filter, yet nothing came back: no overlocked unit to tell the alias by.
	if (judged.verdict === 'honoured' && !records.length)
		return {
			id,
			verdict: 'unknown',
			evidence: `${judged.evidence}; no unit came back, so whether it means overlocked stays open (an overlocked unit decides)`,
			where,
		};
	const evidence =
		judged.verdict === 'honoured'
			? `${judged.evidence}; status spelled ${statuses.join(' and ')} on the records`
			: judged.evidence;
	return { id, verdict: judged.verdict, evidence, where };
}

export { kindOf };

/** A metadata filter whose key is 255 characters long (the longest the node sends): answered, refused or dropped. */
export async function probeMetadataKeyLength(client, list) {
	const id = 'metadata filter key of 255 characters';
	const where = 'nodes/Stora/descriptions/common/filters.ts (MAX_METADATA_FILTER_KEY_LENGTH)';
	if (!list)
		return {
			id,
			verdict: 'unknown',
			evidence: 'not asked: no readable list takes metadata filters',
			where,
		};
	const key = 'stora_probe_'.padEnd(255, 'k');
	const answer = await client.request('GET', `${V}/${list.path}`, {
		query: { limit: 1, [`metadata[${key}]`]: 'x' },
	});
	if (answer.status === 0)
		return {
			id,
			verdict: 'no answer',
			evidence: `GET ${V}/${list.path} with it: ${answer.error}`,
			where,
		};
	if (answer.status === 429 || answer.status >= 500)
		return {
			id,
			verdict: 'unknown',
			evidence: `GET ${V}/${list.path} with it answered ${errorLine(answer)}: not an answer about the key`,
			where,
		};
	if (answer.status === 200)
		return {
			id,
			verdict: 'accepted',
			evidence: `GET ${V}/${list.path} with it answered 200`,
			where,
		};
	return {
		id,
		verdict: 'refused',
		evidence: `GET ${V}/${list.path} with it answered ${errorLine(answer)}`,
		where,
	};
}
