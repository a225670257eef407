// The small language the workflow files in test/e2e/workflows/ use for inputs and expectations.
//
// References (resolved against the sandbox before the case runs; usable in `input`, `before` and `expect`):
//   {"$state": "sites"}                       every record of a collection, as the API renders it
//     "$where": <matcher>                      …only the records matching a matcher
//     "$sortBy": "name", "$desc": true         …sorted by a field
//     "$index": 0  |  "$limit": 2             …one record / the first n
//     "$pluck": "id"                           …one field of the record(s)
//     "$omit": ["id"]                          …without some fields
//     "$count": true                           …how many there are
//   {"$repeat": 230, "$each": <template>}     an array of n copies; in strings "{n}" is the index and
//                                              "{time:n}" the ISO time 2024-01-01T00:00:00Z plus n seconds
//   {"$merge": [<a>, <b>]}                     objects merged left to right
//   {"$concat": ["/2025-09/sites/", <ref>]}    strings joined
//   {"$var": "sandboxUrl"}                     a value of the run (sandboxUrl, n8nUrl, …)
//
// Matchers (in `expect`); a plain object matches when every listed key matches (other keys are ignored), an array
// when it has the same length and every element matches in order, anything else when it is equal:
//   {"$exact": v}  deep equality            {"$regex": "…"}  string matching a pattern
//   {"$contains": "…"} substring            {"$type": "string"|"number"|"array"|"object"|"boolean"|"null"}
//   {"$length": n}  array/string length (n may be a matcher); combine with "$every": <matcher> for each element
//   {"$unordered": [...]} same elements in any order      {"$absent": true} key must not be present
//   {"$pluck": "name", "$is": <matcher>}  match the array of one field
//   {"$not": <matcher>}                      {"$gte": n} / {"$lte": n}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const BASE_TIME = Date.parse('2024-01-01T00:00:00.000Z');

export async function resolve(value, ctx) {
	if (Array.isArray(value)) return Promise.all(value.map((v) => resolve(v, ctx)));
	if (!isObject(value)) return value;
	if ('$state' in value) {
		let records = await ctx.state(value.$state);
		if (value.$where !== undefined) {
			const where = await resolve(value.$where, ctx);
			records = records.filter((r) => match(r, where).length === 0);
		}
		if (value.$sortBy) {
			const key = value.$sortBy;
			records = [...records].sort(
				(a, b) => String(a[key]).localeCompare(String(b[key])) * (value.$desc ? -1 : 1),
			);
		}
		if (value.$count) return records.length;
		let out =
			value.$index !== undefined
				? records.at(value.$index)
				: value.$limit !== undefined
					? records.slice(0, value.$limit)
					: records;
		if (out === undefined) throw new Error(`no record at index ${value.$index} of ${value.$state}`);
		const shape = (r) => {
			let x = r;
			if (value.$omit)
				x = Object.fromEntries(Object.entries(x).filter(([k]) => !value.$omit.includes(k)));
			if (value.$pluck) x = x[value.$pluck];
			return x;
		};
		out = Array.isArray(out) ? out.map(shape) : shape(out);
		return out;
	}
	if ('$repeat' in value) {
		const template = await resolve(value.$each, ctx);
		return Array.from({ length: value.$repeat }, (_, n) => fill(template, n));
	}
	if ('$concat' in value) {
		return (await resolve(value.$concat, ctx)).join('');
	}
	if ('$merge' in value) {
		const parts = await resolve(value.$merge, ctx);
		return Object.assign({}, ...parts);
	}
	if ('$var' in value) {
		if (!(value.$var in ctx.vars)) throw new Error(`unknown $var ${value.$var}`);
		return ctx.vars[value.$var];
	}
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = await resolve(v, ctx);
	return out;
}

function fill(template, n) {
	if (typeof template === 'string') {
		return template
			.replace(/\{time:n\}/g, new Date(BASE_TIME + n * 1000).toISOString())
			.replace(/\{n\}/g, String(n));
	}
	if (Array.isArray(template)) return template.map((t) => fill(t, n));
	if (isObject(template))
		return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, n)]));
	return template;
}

const short = (v) => {
	const s = JSON.stringify(v);
	return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Returns a list of mismatch descriptions (empty when `actual` matches `expected`). */
export function match(actual, expected, at = '$') {
	if (Array.isArray(expected)) {
		if (!Array.isArray(actual))
			return [`${at}: expected an array of ${expected.length}, got ${short(actual)}`];
		if (actual.length !== expected.length)
			return [
				`${at}: expected ${expected.length} elements, got ${actual.length}: ${short(actual)}`,
			];
		return expected.flatMap((e, i) => match(actual[i], e, `${at}[${i}]`));
	}
	if (!isObject(expected)) {
		return Object.is(actual, expected)
			? []
			: [`${at}: expected ${short(expected)}, got ${short(actual)}`];
	}
	const ops = Object.keys(expected).filter((k) => k.startsWith('$'));
	if (ops.length) {
		const problems = [];
		for (const op of ops) {
			const e = expected[op];
			switch (op) {
				case '$exact':
					if (JSON.stringify(canonical(actual)) !== JSON.stringify(canonical(e)))
						problems.push(`${at}: expected exactly ${short(e)}, got ${short(actual)}`);
					break;
				case '$regex':
					if (typeof actual !== 'string' || !new RegExp(e).test(actual))
						problems.push(`${at}: expected a string matching /${e}/, got ${short(actual)}`);
					break;
				case '$contains':
					if (typeof actual !== 'string' || !actual.includes(e))
						problems.push(`${at}: expected a string containing ${short(e)}, got ${short(actual)}`);
					break;
				case '$type':
					if (typeOf(actual) !== e)
						problems.push(`${at}: expected type ${e}, got ${typeOf(actual)} ${short(actual)}`);
					break;
				case '$length':
					if (actual === null || actual === undefined || typeof actual.length !== 'number')
						problems.push(`${at}: expected something with a length, got ${short(actual)}`);
					else problems.push(...match(actual.length, e, `${at}.length`));
					break;
				case '$every':
					if (!Array.isArray(actual))
						problems.push(`${at}: expected an array, got ${short(actual)}`);
					else actual.forEach((a, i) => problems.push(...match(a, e, `${at}[${i}]`)));
					break;
				case '$unordered': {
					if (!Array.isArray(actual) || actual.length !== e.length) {
						problems.push(
							`${at}: expected ${e.length} elements in any order, got ${short(actual)}`,
						);
						break;
					}
					const left = [...actual];
					for (const [i, item] of e.entries()) {
						const found = left.findIndex((a) => match(a, item).length === 0);
						if (found < 0) {
							problems.push(`${at}: no element matches expected[${i}] ${short(item)}`);
							break;
						}
						left.splice(found, 1);
					}
					break;
				}
				case '$absent':
					break; // handled by the parent object
				case '$pluck':
					if (!Array.isArray(actual))
						problems.push(`${at}: expected an array, got ${short(actual)}`);
					else
						problems.push(
							...match(
								actual.map((a) => a?.[e]),
								expected.$is,
								`${at}[*].${e}`,
							),
						);
					break;
				case '$is':
					break; // used with $pluck
				case '$not':
					if (match(actual, e, at).length === 0)
						problems.push(`${at}: expected not to match ${short(e)}, got ${short(actual)}`);
					break;
				case '$gte':
					if (!(actual >= e)) problems.push(`${at}: expected ≥ ${e}, got ${short(actual)}`);
					break;
				case '$lte':
					if (!(actual <= e)) problems.push(`${at}: expected ≤ ${e}, got ${short(actual)}`);
					break;
				default:
					problems.push(`${at}: unknown matcher ${op}`);
			}
		}
		return problems;
	}
	if (!isObject(actual))
		return [`${at}: expected an object like ${short(expected)}, got ${short(actual)}`];
	const problems = [];
	for (const [key, e] of Object.entries(expected)) {
		if (isObject(e) && e.$absent) {
			if (key in actual)
				problems.push(`${at}.${key}: expected to be absent, got ${short(actual[key])}`);
			continue;
		}
		if (!(key in actual)) {
			problems.push(`${at}.${key}: missing (expected ${short(e)})`);
			continue;
		}
		problems.push(...match(actual[key], e, `${at}.${key}`));
	}
	return problems;
}

/** Throws when `actual` does not match `expected`, listing the first problems. */
export function assertMatch(actual, expected, what) {
	const problems = match(actual, expected);
	if (problems.length)
		throw new Error(`${what} does not match:\n${problems.slice(0, 15).join('\n')}`);
}

function canonical(v) {
	if (Array.isArray(v)) return v.map(canonical);
	if (isObject(v))
		return Object.fromEntries(
			Object.keys(v)
				.sort()
				.map((k) => [k, canonical(v[k])]),
		);
	return v;
}
