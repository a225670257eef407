/**
 * Records that let the probe tell every reading apart on the sandbox's demo seed: per list, two copies of existing
 * records, created last (so they head the sample), whose other times, names, positions and metadata run the other
 * way, copied from records that differ in their enums and references. Where the demo seed has fewer than two records
 * (webhook endpoints), two are made from scratch; the second contact gets an open tenancy, so its status differs. Without them a sort by updated_at, say, looks the same honoured or
 * ignored, and the probe rightly answers "unknown".
 */
type Json = Record<string, unknown>;

const V = '/2025-09';

async function control(base: string, method: string, path: string, body?: unknown): Promise<Json> {
	const response = await fetch(`${base}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as Json;
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
	return json;
}

const refId = (value: unknown) =>
	value && typeof value === 'object' && 'id' in value ? String((value as Json).id) : undefined;
const isTime = (name: string, value: unknown) =>
	/(_at|_date)$/.test(name) && typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** How much two records differ in their plain values and references (the enums and IDs filters read). */
function difference(a: Json, b: Json): number {
	let count = 0;
	for (const [name, value] of Object.entries(a)) {
		if (name === 'id' || isTime(name, value)) continue;
		const other = b[name];
		if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
			count += value !== other ? 1 : 0;
		else if (refId(value) !== undefined) count += refId(value) !== refId(other) ? 1 : 0;
	}
	return count;
}

/** The copy of `source` meant to sort `rank` (0: newest created, then the other way round for everything else). */
function copyOf(source: Json, rank: 0 | 1): Json {
	const copy: Json = {};
	for (const [name, value] of Object.entries(source)) {
		if (name === 'id') continue;
		if (name === 'created_at')
			copy[name] = rank === 0 ? '2030-01-02T00:00:00.000Z' : '2030-01-01T00:00:00.000Z';
		else if (isTime(name, value)) {
			const at = rank === 0 ? '2030-02-01T00:00:00.000Z' : '2030-03-01T00:00:00.000Z';
			copy[name] = /^\d{4}-\d{2}-\d{2}$/.test(String(value)) ? at.slice(0, 10) : at;
		} else if (name === 'name' || name === 'full_name' || name === 'title')
			copy[name] = rank === 0 ? 'Aaaa probe record' : 'Zzzz probe record';
		else if (name === 'position') copy[name] = rank === 0 ? 1 : 999;
		else if (name === 'metadata')
			copy[name] = { ...(value as Json), probe_tier: rank === 0 ? 'gold' : 'silver' };
		else copy[name] = value;
	}
	return copy;
}

/** Adds the two records to every list of `paths` (after /2025-09/) on the sandbox at `base`. */
export async function addVariety(base: string, token: string, paths: string[]): Promise<void> {
	const deals = (await control(base, 'GET', '/state/deals')).deals as Json[];
	const staff = refId(deals.find((deal) => refId(deal.creator)?.startsWith('staff_'))?.creator);
	for (const path of paths) {
		const listed = (await (
			await fetch(`${base}${V}/${path}?limit=1`, { headers: { Authorization: `Bearer ${token}` } })
		).json()) as Json;
		const collection = Object.keys(listed).find((key) => key !== 'meta')!;
		const records = (await control(base, 'GET', `/state/${collection}`))[collection] as Json[];
		let pair: Json[];
		if (records.length >= 2) {
			const [first] = records;
			const second = records
				.slice(1)
				.reduce((best, record) =>
					difference(first, record) > difference(first, best) ? record : best,
				);
			pair = [copyOf(first, 0), copyOf(second, 1)];
		} else if (collection === 'endpoints') {
			const endpoint = (status: string, url: string): Json => ({
				name: 'Probe endpoint',
				description: null,
				url,
				api_version: '2025-09',
				event_types: ['contact.created'],
				status,
				disabled_at: status === 'disabled' ? '2030-01-01T00:00:00.000Z' : null,
				secret: null,
				metadata: {},
				creator: { id: staff },
				created_at: '2029-01-01T00:00:00.000Z',
				updated_at: '2029-01-01T00:00:00.000Z',
			});
			pair = [
				copyOf(endpoint('enabled', 'https://example.com/a'), 0),
				copyOf(endpoint('disabled', 'https://example.com/b'), 1),
			];
		} else {
			throw new Error(`${collection}: fewer than two records to copy`);
		}
		const added = (await control(base, 'POST', `/state/${collection}`, { records: pair }))[
			collection
		] as Json[];
		if (collection === 'contacts') {
			// A contact's status comes from its tenancies: one open tenancy makes the second copy a customer.
			const tenancies = (await control(base, 'GET', '/state/tenancies')).tenancies as Json[];
			const open = tenancies.find((tenancy) => tenancy.ends_at === null)!;
			const rest = { ...open };
			delete rest.id;
			await control(base, 'POST', '/state/tenancies', {
				records: [{ ...rest, contact: { id: added[1].id } }],
			});
		}
	}
}
