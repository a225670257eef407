/**
 * Per list and per parameter the node sends: honoured, ignored or refused, told by comparing answers, never by a
 * status code alone. The list is read once without the parameter (the sample, `--sample` records) and once with it
 * set to a value taken from the sample (values.mjs) that an honouring API must answer differently to:
 *
 *   refused   a 4xx whose error names the parameter (a detail's pointer, or its message)
 *   ignored   the very records of the sample come back, in the same order
 *   honoured  the answer changed the way the parameter says (every record passes its test, the order holds, ...)
 *   unknown   too few records or values to tell, or an answer that fits neither (the reason is in the evidence)
 */
import { isDocumented, parametersOf } from './lists.mjs';
import { whereOfParameter } from './points.mjs';
import { chooseTest, fallbackOf, inOrder, kindOf, refId } from './values.mjs';

const V = '/2025-09';

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
	const pointers = (Array.isArray(error.details) ? error.details : []).map((detail) => String(detail?.pointer ?? '').replace(/^\//, ''));
	if (pointers.some((pointer) => pointer === sent || pointer === base || pointer.startsWith(`${sent}/`))) return true;
	const texts = [error.message, ...(Array.isArray(error.details) ? error.details.map((detail) => detail?.message) : [])].filter((text) => typeof text === 'string');
	const word = new RegExp(`(^|[^\\w\\[])${sent.replace(/[[\]]/g, '\\$&')}([^\\w\\]]|$)`);
	return texts.some((text) => word.test(text));
}

/** One line on an error answer: status, code and what it says, for the evidence. */
export function errorLine(answer) {
	if (answer.status === 0) return `no answer (${answer.error})`;
	const error = answer.json?.error;
	if (!error) return `${answer.status} without the API's error envelope`;
	const pointers = (Array.isArray(error.details) ? error.details : []).map((detail) => detail?.pointer).filter((pointer) => pointer !== undefined);
	return `${answer.status} ${error.code ?? '(no code)'}: ${String(error.message ?? '').slice(0, 160)}${pointers.length ? ` (pointers: ${pointers.map((pointer) => JSON.stringify(pointer)).join(', ')})` : ''}`;
}

const ids = (records) => records.map((record) => String(record.id));
const sameRecords = (a, b) => a.length === b.length && a.every((id, index) => id === b[index]);

/** The verdict on one answer; `sample` are the records without the parameter. */
export function judge(test, sample, answer, sent) {
	if (answer.status === 0) return { verdict: 'unknown', evidence: `no answer: ${answer.error}` };
	if (answer.status === 403) return { verdict: 'unknown', evidence: `answered ${errorLine(answer)}: the token may not read what it asks for` };
	if (answer.status >= 400 && answer.status < 500) {
		return namesParameter(answer.json, sent)
			? { verdict: 'refused', evidence: `answered ${errorLine(answer)}` }
			: { verdict: 'unknown', evidence: `answered ${errorLine(answer)}, not naming ${sent}` };
	}
	const records = answer.status === 200 ? recordsOf(answer.json) : undefined;
	if (!records) return { verdict: 'unknown', evidence: `answered ${answer.status} without a list of records` };
	const before = ids(sample);
	const after = ids(records);
	const same = sameRecords(before, after);
	const counts = `${sample.length} record(s) without it, ${records.length} with it`;
	switch (test.expect) {
		case 'limit':
			if (records.length === 1) return { verdict: 'honoured', evidence: `${counts}: one record, as asked` };
			return { verdict: 'ignored', evidence: `${counts}: more than the one asked for` };
		case 'page':
			if (same) return { verdict: 'ignored', evidence: `${counts}: the first page again` };
			if (!after.some((id) => before.includes(id))) return { verdict: 'honoured', evidence: `${counts}: none of the first page's records` };
			return { verdict: 'unknown', evidence: `${counts}: some of the first page's records again, some not` };
		case 'empty':
			if (same) return { verdict: 'ignored', evidence: `${counts}: the same records` };
			if (records.length === 0) return { verdict: 'honoured', evidence: `${counts}: none, as an ID that matches nothing should give` };
			return { verdict: 'unknown', evidence: `${counts}: other records, though the ID matches nothing` };
		case 'expand': {
			const record = records.find((candidate) => String(candidate.id) === String(test.recordId));
			if (!record) return { verdict: same ? 'ignored' : 'unknown', evidence: `${counts}: record ${test.recordId} not among them` };
			const value = Array.isArray(record[test.field]) ? record[test.field][0] : record[test.field];
			if (value && typeof value === 'object' && Object.keys(value).some((key) => key !== 'id')) {
				return { verdict: 'honoured', evidence: `${test.recordId}.${test.field} came back in full (${Object.keys(value).length} members)` };
			}
			if (refId(value) !== undefined) return { verdict: 'ignored', evidence: `${test.recordId}.${test.field} came back as a bare reference, as without it` };
			return { verdict: 'unknown', evidence: `${test.recordId}.${test.field} came back as ${JSON.stringify(value)?.slice(0, 60)}` };
		}
		case 'order': {
			const ordered = inOrder(records, test.field, test.descending);
			if (!sample.some((record) => test.field in record)) {
				// Records without the field (product categories have no created_at) can only show that the order moved.
				if (same) return { verdict: 'ignored', evidence: `${counts}: the same records in the same order (they carry no ${test.field})` };
				return { verdict: 'honoured', evidence: `${counts}: another order (they carry no ${test.field} to check it by)` };
			}
			if (same) {
				if (inOrder(sample, test.field, test.descending)) return { verdict: 'unknown', evidence: `${counts}: the same records in the same order, which is already in ${test.field} order` };
				return { verdict: 'ignored', evidence: `${counts}: the same records in the same order (newest created first)` };
			}
			if (ordered) return { verdict: 'honoured', evidence: `${counts}: in ${test.field} ${test.descending ? 'descending' : 'ascending'} order` };
			return { verdict: 'unknown', evidence: `${counts}: another answer, but not in ${test.field} order` };
		}
		default: {
			if (same) return { verdict: 'ignored', evidence: `${counts}: the same records in the same order, some of which it excludes` };
			const contradicting = records.find((record) => test.test(record) === false);
			if (!contradicting) return { verdict: 'honoured', evidence: `${counts}: every one matches it, and sampled records it excludes are gone` };
			return { verdict: 'unknown', evidence: `${counts}: another answer, yet ${contradicting.id} does not match it` };
		}
	}
}

const pointId = (list, parameter) => `GET ${V}/${list.path}?${parameter}`;
/** The docs: expanding a reference needs its resource's read scope, so a 403 there is an answer, not a reason to stop. */
const expected403 = (parameter) => (parameter === 'expand' ? [403] : []);

/**
 * Asks `list` without and with each parameter the node sends; returns its points and the sample (for the fields
 * check). `scopes`: the token's, or undefined when token info did not say.
 */
export async function probeList(client, list, { sampleSize, scopes, log = () => {} }) {
	const parameters = parametersOf(list);
	const documented = (parameter) => (isDocumented(list, parameter) ? 'documented' : 'not in the docs');
	const point = (parameter, verdict, evidence) => ({
		id: pointId(list, parameter),
		verdict,
		evidence: `(${documented(parameter)}) ${evidence}`,
		where: whereOfParameter(list, parameter),
	});
	if (scopes && !scopes.includes(list.scope)) {
		return { points: parameters.map((parameter) => point(parameter, 'unknown', `not asked: the token lacks ${list.scope}`)), sample: undefined };
	}
	log(`${V}/${list.path}: ${parameters.length} parameters`);
	const baseline = await client.request('GET', `${V}/${list.path}`, { query: { limit: sampleSize } });
	const sample = baseline.status === 200 ? recordsOf(baseline.json) : undefined;
	if (!sample) {
		const why = `not asked: the list itself answered ${errorLine(baseline)}`;
		return { points: parameters.map((parameter) => point(parameter, 'unknown', why)), sample: undefined };
	}
	const points = [];
	for (const parameter of parameters) {
		const test = chooseTest(list, parameter, sample, { scopes });
		if (test.unknown) {
			const fallback = fallbackOf(list, parameter, sample, scopes);
			if (!fallback) {
				points.push(point(parameter, 'unknown', test.unknown));
				continue;
			}
			const sent = Object.keys(fallback)[0];
			const answer = await client.request('GET', `${V}/${list.path}`, { query: { limit: sampleSize, ...fallback }, expect: expected403(parameter) });
			const refused = answer.status >= 400 && answer.status < 500 && answer.status !== 403 && namesParameter(answer.json, sent);
			const shown = kindOf(list.resource, parameter) === 'equals' || kindOf(list.resource, parameter) === 'reference' ? `${sent}=${fallback[sent]}` : sent;
			points.push(point(parameter, refused ? 'refused' : 'unknown', `${test.unknown}; sent ${shown} anyway: answered ${refused || answer.status >= 400 || answer.status === 0 ? errorLine(answer) : answer.status}`));
			continue;
		}
		const query = { limit: sampleSize, ...test.query };
		const sent = Object.keys(test.query)[0];
		const answer = await client.request('GET', `${V}/${list.path}`, { query, expect: expected403(parameter) });
		const { verdict, evidence } = judge(test, sample, answer, sent);
		points.push(point(parameter, verdict, `sent ${sent}=${test.shown}: ${evidence}`));
	}
	return { points, sample };
}

/** `status=overlock` on units: the docs' filter spelling for units whose status reads `overlocked` (VALUE_ALIASES). */
export async function probeOverlockAlias(client, sampleSize) {
	const id = `GET ${V}/units?status=overlock`;
	const where = 'nodes/Stora/transport/listChecks.ts (VALUE_ALIASES)';
	const baseline = await client.request('GET', `${V}/units`, { query: { limit: sampleSize } });
	const sample = recordsOf(baseline.json) ?? [];
	const answer = await client.request('GET', `${V}/units`, { query: { limit: sampleSize, status: 'overlock' } });
	if (answer.status >= 400 && answer.status < 500 && namesParameter(answer.json, 'status')) return { id, verdict: 'refused', evidence: `answered ${errorLine(answer)}`, where };
	const records = answer.status === 200 ? recordsOf(answer.json) : undefined;
	if (!records) return { id, verdict: 'unknown', evidence: `answered ${errorLine(answer)}`, where };
	const statuses = [...new Set(records.map((record) => record.status))];
	if (records.length && sameRecords(ids(sample), ids(records)) && statuses.length > 1) return { id, verdict: 'ignored', evidence: `the same ${records.length} units as without it (statuses ${statuses.join(', ')})`, where };
	if (!records.length) return { id, verdict: 'unknown', evidence: 'no unit came back: no overlocked unit to tell by', where };
	if (statuses.every((status) => status === 'overlocked' || status === 'overlock')) {
		return { id, verdict: 'honoured', evidence: `${records.length} unit(s), status spelled ${statuses.join(' and ')} on the records`, where };
	}
	return { id, verdict: 'unknown', evidence: `${records.length} unit(s) with statuses ${statuses.join(', ')}`, where };
}

export { kindOf };

/** A metadata filter whose key is 255 characters long (the longest the node sends): answered, refused or dropped. */
export async function probeMetadataKeyLength(client, list) {
	const id = 'metadata filter key of 255 characters';
	const where = 'nodes/Stora/descriptions/common/filters.ts (MAX_METADATA_FILTER_KEY_LENGTH)';
	if (!list) return { id, verdict: 'unknown', evidence: 'not asked: no readable list takes metadata filters', where };
	const key = 'stora_probe_'.padEnd(255, 'k');
	const answer = await client.request('GET', `${V}/${list.path}`, { query: { limit: 1, [`metadata[${key}]`]: 'x' } });
	if (answer.status === 0) return { id, verdict: 'no answer', evidence: `GET ${V}/${list.path} with it: ${answer.error}`, where };
	if (answer.status === 200) return { id, verdict: 'accepted', evidence: `GET ${V}/${list.path} with it answered 200`, where };
	return { id, verdict: 'refused', evidence: `GET ${V}/${list.path} with it answered ${errorLine(answer)}`, where };
}
