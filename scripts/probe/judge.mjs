/**
 * The verdict on one list parameter from three reads: the list without it (before), with it, and without it again
 * (after). Other clients write while the probe runs, so only what a concurrent write cannot explain counts:
 *
 *   - the two reads without it must agree (the same records in the same order), else `unknown`;
 *   - only "stable" records are compared: in both reads without it, with the same content (their updated_at
 *     included), so they existed unchanged while the read with it was answered;
 *   - a stable record missing from the answer counts as excluded only when an ignoring API could not have pushed it
 *     off the page (the answer is not full, or too few of its records are new above it);
 *   - an order is judged by the stable records' order only, against the order the reads without it show (checked,
 *     never assumed to be newest created first).
 *
 * A 429 (another client took the budget), a 5xx or no answer is never a verdict. Where the data cannot tell, the
 * verdict is `unknown` with the reason and what would decide it.
 */
import { compareValues, refId } from './values.mjs';

/** The records of a list answer: its one array member beside `meta`. */
export function recordsOf(json) {
	if (!json || typeof json !== 'object') return undefined;
	const key = Object.keys(json).find((name) => name !== 'meta' && Array.isArray(json[name]));
	return key === undefined ? undefined : json[key];
}

/** Whether an error answer names `sent` (the query parameter as sent, e.g. `status` or `metadata[tier]`). */
export function namesParameter(json, sent) {
	const error = json?.error;
	if (!error || typeof error !== 'object') return false;
	const base = sent.replace(/\[.*$/, '');
	const pointers = (Array.isArray(error.details) ? error.details : []).map((detail) =>
		String(detail?.pointer ?? '').replace(/^\//, ''),
	);
	if (
		pointers.some(
			(pointer) => pointer === sent || pointer === base || pointer.startsWith(`${sent}/`),
		)
	)
		return true;
	const texts = [
		error.message,
		...(Array.isArray(error.details) ? error.details.map((detail) => detail?.message) : []),
	].filter((text) => typeof text === 'string');
	const word = new RegExp(`(^|[^\\w\\[])${sent.replace(/[[\]]/g, '\\$&')}([^\\w\\]]|$)`);
	return texts.some((text) => word.test(text));
}

/** One line on an error answer: status, code and what it says, for the evidence. */
export function errorLine(answer) {
	if (answer.status === 0) return `no answer (${answer.error})`;
	const error = answer.json?.error;
	if (!error) return `${answer.status} without the API's error envelope`;
	const pointers = (Array.isArray(error.details) ? error.details : [])
		.map((detail) => detail?.pointer)
		.filter((pointer) => pointer !== undefined);
	return `${answer.status} ${error.code ?? '(no code)'}: ${String(error.message ?? '').slice(0, 160)}${pointers.length ? ` (pointers: ${pointers.map((pointer) => JSON.stringify(pointer)).join(', ')})` : ''}`;
}

/**
 * The verdict an error-free answer cannot give: `{verdict, evidence}` for no answer, a 429, a 5xx or a 4xx (refused
 * only when the error names the parameter and is not a 429), or undefined for a 2xx.
 */
export function statusVerdict(answer, sent) {
	if (answer.status === 0) return { verdict: 'unknown', evidence: `no answer: ${answer.error}` };
	if (answer.status === 429) {
		return {
			verdict: 'unknown',
			evidence: `answered 429 ${answer.rateLimited ? `${answer.rateLimited} times, each retried after RateLimit-Reset` : ''}: rate limited (other clients of the account share the budget), not an answer about ${sent}; run again with a lower --pace`,
		};
	}
	if (answer.status === 403)
		return {
			verdict: 'unknown',
			evidence: `answered ${errorLine(answer)}: the token may not read what it asks for`,
		};
	if (answer.status >= 500)
		return {
			verdict: 'unknown',
			evidence: `answered ${errorLine(answer)}: a server error, not an answer about ${sent}`,
		};
	if (answer.status >= 400) {
		return namesParameter(answer.json, sent)
			? { verdict: 'refused', evidence: `answered ${errorLine(answer)}` }
			: { verdict: 'unknown', evidence: `answered ${errorLine(answer)}, not naming ${sent}` };
	}
	return undefined;
}

const idsOf = (records) => records.map((record) => String(record.id));
const stableJson = (value) =>
	JSON.stringify(value, (key, inner) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);

/**
 * What the two reads without the parameter say: whether they agree, why not, the stable records (in order) and
 * their places in the first read.
 */
export function compareBaselines(before, after) {
	const a = idsOf(before);
	const b = idsOf(after);
	const added = b.filter((id) => !a.includes(id)).length;
	const removed = a.filter((id) => !b.includes(id)).length;
	const agree = a.length === b.length && a.every((id, index) => id === b[index]);
	const byId = new Map(after.map((record) => [String(record.id), record]));
	const stable = before.filter(
		(record) =>
			byId.has(String(record.id)) && stableJson(record) === stableJson(byId.get(String(record.id))),
	);
	const changed = before.filter((record) => byId.has(String(record.id))).length - stable.length;
	const why = agree
		? ''
		: `the two reads without it differ (${[added ? `${added} record(s) added` : '', removed ? `${removed} removed` : '', !added && !removed ? 'another order' : ''].filter(Boolean).join(', ')}): other clients wrote meanwhile`;
	return { agree, why, stable, changed, index: new Map(a.map((id, index) => [id, index])) };
}

/**
 * Context of one judgement: reads, the page size asked for, and the stable records. `answerLimit`: the answer's own
 * page size where it was asked with another `limit` than the reads without it (page 2 with limit=k).
 */
function contextOf(before, answerRecords, after, pageSize, answerLimit) {
	const base = compareBaselines(before, after);
	const returned = new Set(idsOf(answerRecords));
	const size = answerLimit ?? Math.max(pageSize, before.length, after.length);
	// A record created before the newest record of the first read existed then: it is not new, whatever the order.
	const newest = Math.max(
		...before
			.map((record) => Date.parse(String(record.created_at)))
			.filter((time) => !Number.isNaN(time)),
	);
	const maybeNew = (record) => !(Date.parse(String(record.created_at)) < newest);
	/**
	 * An ignoring API could not have left `record` (stable) out of this answer: the answer is not a full page, or too
	 * few of its records could be new ones above it (a full page of them could push it off).
	 */
	const surelyExcluded = (record) => {
		const id = String(record.id);
		if (returned.has(id)) return false;
		if (answerRecords.length < size) return true;
		const place = base.index.get(id);
		const above = new Set(idsOf(before.slice(0, place)));
		return (
			answerRecords.filter((candidate) => !above.has(String(candidate.id)) && maybeNew(candidate))
				.length <
			size - place
		);
	};
	const stableInAnswer = answerRecords.filter((record) =>
		base.stable.some((stable) => String(stable.id) === String(record.id)),
	);
	const sameStableOrder = idsOf(stableInAnswer).join() === idsOf(base.stable).join();
	return { ...base, returned, surelyExcluded, stableInAnswer, sameStableOrder, size };
}

const decide = (verdict, evidence) => ({ verdict, evidence });
const UNQUIET = 'run it again at a quieter time, or with a larger --sample';

/** A list answer's `meta.pagination.count` (documented: the list's size), or undefined. */
export function countOf(json) {
	const count = json?.meta?.pagination?.count;
	return typeof count === 'number' && Number.isFinite(count) ? count : undefined;
}

/**
 * Page 2 is judged only where the list's count is the same in the read before it, its own answer and the read after:
 * a record created and deleted again between the reads without it shifts page 2 by one place unseen by them (page 2
 * of an honouring API then shows the first page's last record, and the first page again where k records came).
 */
function pageCounts(counts, countsText) {
	if (!counts || counts.some((count) => count === undefined)) {
		return decide(
			'unknown',
			`${countsText}: meta.pagination.count (documented) was not on every answer, so a count that changed between the pages could not be seen; an answer with it decides`,
		);
	}
	if (new Set(counts).size > 1) {
		return decide(
			'unknown',
			`${countsText}: the list's count changed between the pages (meta.pagination.count ${counts.join(', ')} before, on page 2 and after): other clients created or deleted records meanwhile; ${UNQUIET}`,
		);
	}
	return undefined;
}

/**
 * `{verdict, evidence}` for a filter-like test (`expect` subset, page, empty, limit, refOnly). `listCounts`: the
 * `meta.pagination.count` of the read before, the answer and the read after (page 2 is judged only where they agree).
 */
export function judgeAnswer(test, before, answer, after, sent, pageSize, listCounts) {
	const status = statusVerdict(answer, sent);
	if (status) return status;
	const records = recordsOf(answer.json);
	if (!records) return decide('unknown', `answered ${answer.status} without a list of records`);
	const counts = `${before.length} record(s) without it, ${records.length} with it`;
	if (test.expect === 'limit') {
		if (records.length > 1) return decide('ignored', `${counts}: more than the one asked for`);
		const base = compareBaselines(before, after);
		if (records.length === 1 && base.stable.length >= 2)
			return decide(
				'honoured',
				`${counts}: one record, while ${base.stable.length} stayed unchanged on the list throughout`,
			);
		return decide(
			'unknown',
			`${counts}: fewer than two records stayed on the list throughout; a list of two or more decides`,
		);
	}
	if (test.expect === 'expand') return judgeExpand(test, before, records, after, counts);
	const context = contextOf(
		before,
		records,
		after,
		pageSize,
		test.expect === 'page' ? test.k : undefined,
	);
	if (!context.agree) return decide('unknown', `${counts}; ${context.why}; ${UNQUIET}`);
	const countChanged = test.expect === 'page' ? pageCounts(listCounts, counts) : undefined;
	if (countChanged) return countChanged;
	const stable = context.stable;
	if (!stable.length)
		return decide(
			'unknown',
			`${counts}: no record stayed unchanged in both reads without it (${context.changed} changed); ${UNQUIET}`,
		);
	const kept = `all ${stable.length} record(s) unchanged in both reads without it came back, in the same order`;
	switch (test.expect) {
		case 'page': {
			// Asked with limit=k: page 2 is the records at places k to 2k-1 of the list without it.
			const first = before.slice(0, test.k);
			const firstStable = first.every((record) =>
				stable.some((other) => String(other.id) === String(record.id)),
			);
			const shown = (part) => idsOf(records).some((id) => idsOf(part).includes(id));
			if (firstStable && idsOf(records).join() === idsOf(first).join())
				return decide(
					'ignored',
					`${counts}: the first ${test.k} again, in the same order, where the list without it was unchanged`,
				);
			if (
				firstStable &&
				!shown(first) &&
				records.some((record) =>
					stable.slice(test.k).some((other) => String(other.id) === String(record.id)),
				)
			) {
				return decide(
					'honoured',
					`${counts}: records from after the first ${test.k} of the list without it, none of the first ${test.k} (all unchanged throughout)`,
				);
			}
			if (!context.stableInAnswer.length && stable.some(context.surelyExcluded))
				return decide(
					'honoured',
					`${counts}: none of the first page's ${stable.length} unchanged records`,
				);
			return decide('unknown', `${counts}: some of the first page's records again, some not`);
		}
		case 'empty':
		case 'refOnly': {
			if (!records.length)
				return decide(
					'honoured',
					`${counts}: none, where ${stable.length} unchanged record(s) were on the list throughout${test.expect === 'empty' ? ' (an ID that matches nothing)' : ''}`,
				);
			const dropped = stable.filter(context.surelyExcluded);
			if (dropped.length)
				return decide(
					'honoured',
					`${counts}: ${dropped.length} record(s) on the list throughout were left out (${idsOf(dropped).slice(0, 3).join(', ')})`,
				);
			if (test.expect === 'empty' && context.sameStableOrder)
				return decide('ignored', `${counts}: ${kept}, though the ID matches nothing`);
			return decide(
				'unknown',
				`${counts}: ${kept}; ${test.decides ?? 'an ID matching some records but not all would decide'}`,
			);
		}
		default: {
			const contradicting = records.find((record) => test.test(record) === false);
			const excluded = stable.filter((record) => test.test(record) === false);
			if (!excluded.length)
				return decide(
					'unknown',
					`${counts}: no record unchanged in both reads without it is one it excludes (${UNQUIET})`,
				);
			if (contradicting) {
				if (
					context.sameStableOrder &&
					excluded.every((record) => context.returned.has(String(record.id)))
				)
					return decide(
						'ignored',
						`${counts}: ${kept}, ${excluded.length} of which it excludes (e.g. ${excluded[0].id})`,
					);
				return decide(
					'unknown',
					`${counts}: ${contradicting.id} does not match it, yet the answer is not the list without it`,
				);
			}
			const surely = excluded.filter(context.surelyExcluded);
			if (surely.length)
				return decide(
					'honoured',
					`${counts}: every one matches it, and ${surely.length} record(s) it excludes, unchanged on the list throughout, are gone (e.g. ${surely[0].id})${test.boundNote ? test.boundNote(records, stable, context) : ''}`,
				);
			return decide(
				'unknown',
				`${counts}: every one matches it, but the records it excludes may have been pushed off the page by new ones; ${UNQUIET}`,
			);
		}
	}
}

/**
 * `expand`: a reference that comes back in full is honoured. Bare references are ignored only when two or more
 * different records are referenced: one may have been deleted by another client meanwhile (nothing to expand).
 */
function judgeExpand(test, before, records, after, counts) {
	const first = (record) =>
		Array.isArray(record[test.field]) ? record[test.field][0] : record[test.field];
	const full = records.find((record) => {
		const value = first(record);
		return value && typeof value === 'object' && Object.keys(value).some((key) => key !== 'id');
	});
	if (full)
		return decide(
			'honoured',
			`${full.id}.${test.field} came back in full (${Object.keys(first(full)).length} members)`,
		);
	const bare = [
		...new Set(records.map((record) => refId(first(record))).filter((id) => id !== undefined)),
	];
	if (bare.length >= 2)
		return decide(
			'ignored',
			`${counts}: ${test.field} came back as a bare reference on every record (${bare.length} different records referenced), as without it`,
		);
	if (bare.length === 1)
		return decide(
			'unknown',
			`${counts}: ${test.field} came back bare, but only one record is referenced and it may have been deleted meanwhile; two records referencing different ones decide`,
		);
	return decide('unknown', `${counts}: no record with a ${test.field} came back`);
}

/** +1 when `records` are in ascending `field` order, -1 descending, 0 neither (or fewer than two values); ties allowed. */
export function directionOf(records, field) {
	const values = records
		.map((record) => record[field])
		.filter((value) => value !== undefined && value !== null && value !== '');
	if (values.length < 2) return 0;
	const signs = values
		.slice(1)
		.map((value, index) => Math.sign(compareValues(values[index], value)));
	if (signs.every((sign) => sign <= 0) && signs.some((sign) => sign < 0)) return 1;
	if (signs.every((sign) => sign >= 0) && signs.some((sign) => sign > 0)) return -1;
	return 0;
}

/** The order the records without the parameter show, in words (checked on the stable records). */
export function describeOrder(records, fields) {
	for (const field of fields) {
		const direction = directionOf(records, field);
		if (direction)
			return { field, direction, text: `${field} ${direction > 0 ? 'ascending' : 'descending'}` };
	}
	return { text: `none of ${fields.join(', ')}` };
}

/** `sort_by=<field>`: the answer in that field's order (either direction), where the list without it is not. */
export function judgeSort(test, before, answer, after, sent, pageSize, orderFields) {
	const status = statusVerdict(answer, sent);
	if (status) return status;
	const records = recordsOf(answer.json);
	if (!records) return decide('unknown', `answered ${answer.status} without a list of records`);
	const context = contextOf(before, records, after, pageSize);
	const counts = `${before.length} record(s) without it, ${records.length} with it`;
	if (!context.agree) return decide('unknown', `${counts}; ${context.why}; ${UNQUIET}`);
	const usual = describeOrder(context.stable, orderFields).text;
	if (context.stable.length < 3)
		return decide(
			'unknown',
			`${counts}: fewer than three records stayed unchanged in both reads; ${UNQUIET}`,
		);
	if (directionOf(context.stable, test.field) !== 0)
		return decide(
			'unknown',
			`${counts}: the unchanged records are in ${test.field} order already (without it: ${usual})`,
		);
	if (context.sameStableOrder && context.stableInAnswer.length === context.stable.length)
		return decide(
			'ignored',
			`${counts}: the ${context.stable.length} unchanged records came back in the order they have without it (${usual}), which is not ${test.field} order`,
		);
	const direction = directionOf(records, test.field);
	if (direction && !context.sameStableOrder)
		return decide(
			'honoured',
			`${counts}: in ${test.field} ${direction > 0 ? 'ascending' : 'descending'} order (without it: ${usual})`,
		);
	return decide('unknown', `${counts}: another order, but not ${test.field} order`);
}

/**
 * `sort_direction`: ASC and DESC asked alone. Honoured when one gives the order the list has without it and the other
 * reverses the unchanged records (or, on a list longer than a page, shows none of them where no new record explains
 * it); ignored when both give that order and the records show a strict order a direction would reverse.
 */
export function judgeDirection(before, ascending, descending, after, pageSize, orderFields) {
	for (const answer of [ascending, descending]) {
		const status = statusVerdict(answer, 'sort_direction');
		if (status) return status;
	}
	const asc = recordsOf(ascending.json);
	const desc = recordsOf(descending.json);
	if (!asc || !desc) return decide('unknown', 'an answer without a list of records');
	const [a, d] = [
		contextOf(before, asc, after, pageSize),
		contextOf(before, desc, after, pageSize),
	];
	const counts = `${before.length} record(s) without it, ${asc.length} with ASC, ${desc.length} with DESC`;
	if (!a.agree) return decide('unknown', `${counts}; ${a.why}; ${UNQUIET}`);
	const base = idsOf(a.stable);
	if (base.length < 2)
		return decide(
			'unknown',
			`${counts}: fewer than two records stayed unchanged in both reads without it; ${UNQUIET}`,
		);
	const same = (context) => idsOf(context.stableInAnswer).join() === base.join();
	const flipped = (context) => {
		const shown = idsOf(context.stableInAnswer);
		if (shown.length >= 2)
			return (
				shown.join() ===
				base
					.filter((id) => shown.includes(id))
					.reverse()
					.join()
			);
		return !shown.length && context.stable.some(context.surelyExcluded);
	};
	const usual = describeOrder(a.stable, orderFields);
	const without = usual.field ? `${usual.text} order` : 'no order of its fields';
	if ((same(a) && flipped(d)) || (same(d) && flipped(a)))
		return decide(
			'honoured',
			`${counts}: ${same(a) ? 'ASC' : 'DESC'} gives the order without it (${without}), ${same(a) ? 'DESC' : 'ASC'} the reverse`,
		);
	if (same(a) && same(d)) {
		// Records sharing a value may keep their order either way; a pair with different values must swap. The docs
		// name created_at as the default sort, so one such pair is enough there; any other field must order them all.
		const strict = usual.field
			? a.stable.filter(
					(record, index) =>
						index > 0 && compareValues(a.stable[index - 1][usual.field], record[usual.field]) !== 0,
				).length
			: 0;
		if (strict && (usual.field === 'created_at' || strict === base.length - 1)) {
			return decide(
				'ignored',
				`${counts}: ASC, DESC and neither give the same order, ${usual.text} (checked: ${strict} neighbouring pair(s) of the ${base.length} unchanged records differ in ${usual.field}, and would swap)`,
			);
		}
		return decide(
			'unknown',
			`${counts}: the same order each time, but the records show no strict order (${usual.text}) a direction would reverse`,
		);
	}
	return decide('unknown', `${counts}: ASC and DESC give orders that are not each other's reverse`);
}
