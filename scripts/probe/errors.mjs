/**
 * What a 401, a 404 and a 422 look like (auth-errors-limits.md §3: `{error: {code, type, message, links, details,
 * request_id}}`), each provoked by a harmless read: a made-up token, an ID and a path that exist nowhere, a page
 * size over the documented 100.
 */
import { StopError } from './http.mjs';
import { errorLine } from './listVerdicts.mjs';
import { WHERE } from './points.mjs';

const V = '/2025-09';
const ENVELOPE = ['code', 'type', 'message', 'links', 'details', 'request_id'];

/** Compares an error answer with the documented one; the evidence names what differs. */
function errorPoint(id, answer, status, code, extra = '') {
	const error = answer.json?.error;
	const members = error && typeof error === 'object' ? Object.keys(error) : [];
	const missing = ENVELOPE.filter((name) => !members.includes(name));
	const differences = [
		answer.status !== status ? `status ${answer.status}, not ${status}` : '',
		error?.code !== code ? `code ${JSON.stringify(error?.code)}, not ${code}` : '',
		missing.length ? `no ${missing.join(', ')}` : '',
	].filter(Boolean);
	return {
		id,
		verdict: differences.length ? 'differs' : 'as documented',
		evidence: `${errorLine(answer)}${members.length ? `; members: ${members.join(', ')}` : ''}${differences.length ? `; differs: ${differences.join('; ')}` : ''}${extra}`,
		where: WHERE.errors,
	};
}

/** Deliberate: a token that cannot exist, on `path` (a list). Its 401 is expected; any other 401/403 stops the probe. */
export async function probeUnauthorized(client, path) {
	const unauthorized = await client.request('GET', `${V}/${path}`, {
		query: { limit: 1 },
		auth: 'stora-probe-invalid-token',
		expect: [401, 403],
	});
	return errorPoint('error 401 (a token that does not exist)', unauthorized, 401, 'invalid_token');
}

/** `list`: a list the token may read (its path and an ID prefix), to ask for a missing record and a bad page size. */
export async function probeErrors(client, list) {
	const points = [];
	if (!list) {
		const why = 'not asked: the token may read none of the lists the node uses';
		for (const id of [
			'error 404 resource_not_found',
			'error 404 invalid_endpoint',
			'error 422 invalid_url_param',
		])
			points.push({ id, verdict: 'unknown', evidence: why, where: WHERE.errors });
		return points;
	}
	const missing = await client.request('GET', `${V}/${list.path}/${list.prefix}probe0000000000`);
	points.push(
		errorPoint(
			`error 404 resource_not_found (GET ${V}/${list.path}/{id})`,
			missing,
			404,
			'resource_not_found',
		),
	);

	const endpoint = await client.request('GET', `${V}/probe_no_such_endpoint`);
	points.push(errorPoint('error 404 invalid_endpoint', endpoint, 404, 'invalid_endpoint'));

	const tooMany = await client.request('GET', `${V}/${list.path}`, { query: { limit: 1000 } });
	if (tooMany.status === 200) {
		const count = Array.isArray(Object.values(tooMany.json ?? {}).find(Array.isArray))
			? Object.values(tooMany.json).find(Array.isArray).length
			: '?';
		points.push({
			id: 'error 422 invalid_url_param',
			verdict: 'differs',
			evidence: `limit=1000 was not refused: 200 with ${count} record(s)`,
			where: WHERE.errors,
		});
	} else {
		const pointers = (tooMany.json?.error?.details ?? []).map((detail) => detail?.pointer);
		const form = pointers.includes('limit')
			? 'the parameter name'
			: pointers.includes('/limit')
				? 'a JSON pointer'
				: 'neither';
		points.push(
			errorPoint(
				'error 422 invalid_url_param',
				tooMany,
				422,
				'invalid_url_param',
				`; a query parameter's pointer is ${form}`,
			),
		);
	}
	return points;
}

/**
 * `GET /oauth2/token/info`: the token's scopes (an array in the docs; a space-separated string is read too) and
 * whether its `expires_in` is a moment or a duration (the docs' two examples disagree).
 */
export async function probeTokenInfo(client) {
	const answer = await client.request('GET', '/oauth2/token/info');
	// Nothing answers at that address: every later question would go unanswered too.
	if (answer.status === 0)
		throw new StopError(
			`GET /oauth2/token/info got no answer (${answer.error}): check STORA_BASE_URL.`,
		);
	const body =
		answer.status === 200 && answer.json && typeof answer.json === 'object'
			? answer.json
			: undefined;
	const raw = body?.scope ?? body?.scopes;
	const scopes = Array.isArray(raw)
		? raw.map(String)
		: typeof raw === 'string'
			? raw.split(/\s+/).filter(Boolean)
			: undefined;
	const expires = body?.expires_in;
	const created = body?.created_at;
	let verdict = 'unknown';
	let evidence = body ? 'no expires_in' : `answered ${errorLine(answer)}`;
	if (typeof expires === 'number') {
		verdict = expires > 1e9 ? 'a moment (Unix time)' : 'a duration (seconds)';
		evidence = `expires_in ${expires > 1e9 ? 'is a Unix time' : `is ${expires} s`}${typeof created === 'number' ? `, created_at a Unix time ${expires > 1e9 ? `${expires - created} s before it` : ''}` : ''}`;
	} else if (body && expires === null) {
		verdict = 'null (no expiry)';
		evidence = 'expires_in is null';
	}
	return {
		scopes,
		scopeForm: Array.isArray(raw)
			? 'array'
			: typeof raw === 'string'
				? 'space-separated string'
				: 'absent',
		points: [{ id: 'token info expires_in', verdict, evidence, where: WHERE.none }],
	};
}

/** Rate-limit headers seen on the answers of this run (`seen`: header → {count, sample}), out of `answers`. */
export function rateLimitPoints(seen, answers) {
	const names = ['RateLimit-Limit', 'RateLimit-Reset', 'RateLimit-Remaining', 'RateLimit-Policy'];
	const points = names.map((name) => {
		const found = seen[name.toLowerCase()];
		return {
			id: `header ${name}`,
			verdict: found ? 'present' : 'absent',
			evidence: found
				? `on ${found.count} of ${answers} answers, e.g. ${JSON.stringify(found.sample)}`
				: `on none of ${answers} answers`,
			where: WHERE.rateLimit,
		};
	});
	const reset = seen['ratelimit-reset'];
	const value = Number(reset?.sample);
	points.push({
		id: 'header RateLimit-Reset form',
		verdict:
			!reset || !Number.isFinite(value)
				? 'unknown'
				: value > 1e9
					? 'Unix time (seconds)'
					: 'seconds from now',
		evidence: reset ? `e.g. ${JSON.stringify(reset.sample)}` : 'the header was not seen',
		where: WHERE.rateLimit,
	});
	const retry = seen['retry-after'];
	points.push({
		id: 'header Retry-After',
		verdict: retry ? 'present' : 'unknown',
		evidence: retry
			? `on ${retry.count} answer(s), e.g. ${JSON.stringify(retry.sample)}`
			: 'only a 429 would carry it, and the probe stays under the limits',
		where: WHERE.rateLimit,
	});
	return points;
}
