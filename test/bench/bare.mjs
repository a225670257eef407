// The bench's bare references: the simplest correct client, run by the bench itself with Node's fetch, one request
// after the other. What the Stora node's per-request work is compared with.

/** A list page by page (`GET <list>?limit=100&page=N`), following `meta.pagination.next` until it is null. */
export async function bareLoop(baseUrl, token, list = 'orders') {
	const started = performance.now();
	let page = 1;
	let items = 0;
	let requests = 0;
	for (;;) {
		const res = await fetch(`${baseUrl}/2025-09/${list}?limit=100&page=${page}`, {
			headers: { authorization: `Bearer ${token}` },
		});
		requests++;
		const body = await res.json();
		if (!res.ok) throw new Error(`bare loop: HTTP ${res.status}`);
		items += body[list].length;
		const next = body.meta?.pagination?.next;
		if (next === null || next === undefined) break;
		page = next;
	}
	return { ms: performance.now() - started, items, requests };
}

/**
 * A list as one CSV file: the page count from the first JSON page, then every page as CSV (`Accept: text/csv`), joined
 * under one header row, as the Stora node's Output Format CSV does.
 */
export async function bareCsvLoop(baseUrl, token, list = 'sites') {
	const started = performance.now();
	const headers = { authorization: `Bearer ${token}` };
	const first = await fetch(`${baseUrl}/2025-09/${list}?limit=100&page=1`, { headers });
	if (!first.ok) throw new Error(`bare CSV loop: HTTP ${first.status}`);
	const pages = (await first.json()).meta.pagination.pages;
	const parts = [];
	for (let page = 1; page <= pages; page++) {
		const res = await fetch(`${baseUrl}/2025-09/${list}?limit=100&page=${page}`, {
			headers: { ...headers, accept: 'text/csv' },
		});
		if (!res.ok) throw new Error(`bare CSV loop: HTTP ${res.status}`);
		const text = (await res.text()).replace(/\r\n$/, '');
		parts.push(page === 1 ? text : text.slice(text.indexOf('\r\n') + 2));
	}
	const csv = `${parts.join('\r\n')}\r\n`;
	const ms = performance.now() - started;
	// Header row, then one row per record (counted after the clock stopped).
	return { ms, items: csv.split('\r\n').length - 2, requests: pages + 1 };
}
