/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test harness under test/, never published */
/**
 * A Stora-shaped list of any size over real HTTP, generated on the fly (the sandbox keeps records in memory and
 * filters every one of them per request, too slow for lists of 150,000). Record n is `site_<n>`, created n seconds after a base
 * time. It can behave as the docs promise (sort, `created_after`/`created_before`, `count`) or as a list that
 * ignores them, to test what the node does when Stora does not.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LargeListOptions {
	/** Records in the list. */
	size: number;
	/** Report `meta.pagination.count` and `pages` (default true). */
	count?: boolean;
	/** Honour `sort_by=created_at` and `sort_direction` (default true). */
	honoursSort?: boolean;
	/** Honour `created_after` / `created_before` (default true). */
	honoursTimeFilters?: boolean;
	/** The order when the sort is not honoured: newest first (the docs' default) or scattered (default newest first). */
	ownOrder?: 'newest first' | 'scattered';
	/** Added delay before each answer, in ms (default 0), as the sandbox's `--latency`. */
	latencyMs?: number;
}

// Its clock (the `Date` header) is that of its own world: the created_at the next record will get.

export interface LargeList {
	url: string;
	/** Every request's query, in order. */
	queries: Array<Record<string, string>>;
	/** The list's records may grow while a test runs. */
	options: LargeListOptions;
	/** created_at of record n. */
	createdAt(n: number): string;
	close(): Promise<void>;
}

const BASE = Date.parse('2020-01-01T00:00:00.000Z');

export async function startLargeList(options: LargeListOptions): Promise<LargeList> {
	const queries: Array<Record<string, string>> = [];
	const createdAt = (n: number) => new Date(BASE + n * 1000).toISOString();
	const record = (n: number) => ({
		id: `site_${n}`,
		name: `${n} Depot`,
		created_at: createdAt(n),
		updated_at: createdAt(n),
	});
	// A fixed permutation for the scattered order: multiplying by a number coprime with the size.
	const scatter = (position: number, size: number) => {
		let step = 7919;
		while (size % step === 0 || step % size === 0) step += 2;
		return (position * step) % size;
	};

	const respond = (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		const query = Object.fromEntries(url.searchParams.entries());
		queries.push(query);
		const {
			size,
			count = true,
			honoursSort = true,
			honoursTimeFilters = true,
			ownOrder = 'newest first',
		} = options;
		const limit = Math.min(100, Math.max(1, Number(query.limit ?? 50)));
		const page = Math.max(1, Number(query.page ?? 1));
		// The matching records as a range of indexes [from, to).
		let from = 0;
		let to = size;
		if (honoursTimeFilters && query.created_after)
			from = Math.max(0, Math.ceil((Date.parse(query.created_after) - BASE) / 1000));
		if (honoursTimeFilters && query.created_before)
			to = Math.min(size, Math.ceil((Date.parse(query.created_before) - BASE) / 1000));
		const total = Math.max(0, to - from);
		const ascending =
			honoursSort &&
			query.sort_by === 'created_at' &&
			String(query.sort_direction).toUpperCase() === 'ASC';
		const at = (position: number) => {
			if (!honoursSort && ownOrder === 'scattered') return from + scatter(position, total);
			return ascending ? from + position : to - 1 - position;
		};
		const first = (page - 1) * limit;
		const indexes = Array.from({ length: Math.max(0, Math.min(limit, total - first)) }, (_, k) =>
			at(first + k),
		);
		const pages = Math.max(1, Math.ceil(total / limit));
		const pagination: Record<string, unknown> = {
			page,
			limit,
			next: page < pages ? page + 1 : null,
			prev: page > 1 ? page - 1 : null,
		};
		if (count) Object.assign(pagination, { count: total, pages, last: pages });
		if (String(request.headers.accept).includes('text/csv')) {
			const rows = [
				'id,name,created_at,updated_at',
				...indexes.map((n) => Object.values(record(n)).join(',')),
			];
			response.writeHead(200, { 'Content-Type': 'text/csv' }).end(`${rows.join('\r\n')}\r\n`);
			return;
		}
		response
			.writeHead(200, {
				'Content-Type': 'application/json',
				Date: new Date(createdAt(size)).toUTCString(),
			})
			.end(JSON.stringify({ sites: indexes.map(record), meta: { pagination } }));
	};
	const server: Server = createServer((request, response) => {
		const latency = options.latencyMs ?? 0;
		if (latency > 0) setTimeout(respond, latency, request, response);
		else respond(request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		queries,
		options,
		createdAt,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
