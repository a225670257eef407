/**
 * What each list point's verdict must be when the sandbox plays a reading (honour, ignore, reject) on a list: shared
 * by the readings suite (a quiet account) and the noise suite (other clients writing, odd bounds and orders, 429s).
 */
import { probeTable, type ProbeList, type ProbeRun } from './probeRun';

export const V = '/2025-09';

export const READINGS = ['honour', 'ignore', 'reject'] as const;
export type Reading = (typeof READINGS)[number];
export const VERDICT: Record<Reading, string> = {
	honour: 'honoured',
	ignore: 'ignored',
	reject: 'refused',
};
export const FAST = ['--pace', '1000/100000'];

/**
 * Points the demo data cannot decide, and why: the probe must say "unknown" there (or "refused", which an error
 * settles whatever the data). Every other point must come out as the reading.
 */
export const UNDECIDABLE: Record<string, string> = {
	[`GET ${V}/credit_notes?sort_by`]: 'credit notes carry no updated_at',
	[`GET ${V}/credit_notes?updated_after`]: 'credit notes carry no updated_at',
	[`GET ${V}/product_categories?sort_by`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?created_after`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?created_before`]: 'product categories carry no timestamps',
	[`GET ${V}/product_categories?updated_after`]: 'product categories carry no timestamps',
	[`GET ${V}/webhook_endpoints?sort_by`]:
		'two endpoints: any two records are in one order or the other, so a sort in either direction would not show',
};
/**
 * Points where only an honouring list can be told apart: ignored looks like "no difference a sort would show", so the
 * probe must say "unknown" there when the list ignores the parameter.
 */
export const HONOUR_ONLY: Record<string, string> = {
	[`GET ${V}/product_categories?sort_direction`]:
		'no field shows the order the records come in, so an ignored direction cannot be told',
	[`GET ${V}/webhook_endpoints?expand`]:
		'both endpoints have the same creator: one bare reference could be a deleted record, not an ignored expand',
};
/** Free-text Expand, no reference on the records: nothing to send. */
export const NEVER_ASKED = [`GET ${V}/product_categories?expand`];

export const table = probeTable();
export const idOf = (list: ProbeList, parameter: string) => `GET ${V}/${list.path}?${parameter}`;

export function expected(id: string, parameter: string, reading: Reading): string {
	if (NEVER_ASKED.includes(id)) return 'unknown';
	// `*` leaves page and limit alone (sandbox/core/readings.ts): every list honours them.
	if (parameter === 'page' || parameter === 'limit') return 'honoured';
	if (UNDECIDABLE[id]) return reading === 'reject' ? 'refused' : 'unknown';
	if (HONOUR_ONLY[id] && reading === 'ignore') return 'unknown';
	return VERDICT[reading];
}

/** `run`'s list points that differ from `want(id, parameter)`, one line each. */
export function mismatches(
	run: ProbeRun,
	lists: ProbeList[],
	want: (list: ProbeList, parameter: string) => string,
): string[] {
	const wrong: string[] = [];
	for (const list of lists) {
		for (const parameter of list.parameters) {
			const id = idOf(list, parameter);
			const found = run.json.points.find((entry) => entry.id === id);
			const wanted = want(list, parameter);
			if (found?.verdict !== wanted)
				wrong.push(
					`${id}: ${found?.verdict ?? 'no point'} (wanted ${wanted}) ${found?.evidence ?? ''}`,
				);
		}
	}
	return wrong;
}
