import { runStora } from '../../helpers/n8n';
import { oldestFirst } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Timeline Source', () => {
	const { client, credentials, seed } = useResourceFixture('sources');

	it('gets many timeline sources up to the limit, oldest first, within the created and updated windows', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineSource',
				operation: 'getAll',
				returnAll: false,
				limit: 2,
				filters: {
					createdAfter: '2000-01-01T00:00:00.000Z',
					updatedBefore: '2100-01-01T00:00:00.000Z',
				},
				options: { sortBy: 'created_at', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/timeline/sources' });
		expect(requests[0].query).toEqual({
			limit: '2',
			created_after: '2000-01-01T00:00:00.000Z',
			updated_before: '2100-01-01T00:00:00.000Z',
			sort_by: 'created_at',
			sort_direction: 'ASC',
		});
		expect(seed.sources.length).toBeGreaterThan(2);
		expect(result.items.map((item) => item.json)).toEqual(
			[...seed.sources].sort(oldestFirst).slice(0, 2),
		);
	});

	it('exports every timeline source as one CSV file', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineSource',
				operation: 'getAll',
				returnAll: true,
				outputFormat: 'csv',
				binaryPropertyName: 'sources',
			},
		});
		expect(result.error).toBeUndefined();
		// Return All as CSV: the JSON list says how many pages there are, then each page comes as CSV.
		const requests = await client.requests();
		expect(
			requests.map((request) => [
				request.method,
				request.path,
				request.headers.accept,
				request.query.page,
			]),
		).toEqual([
			['GET', '/2025-09/timeline/sources', 'application/json', '1'],
			['GET', '/2025-09/timeline/sources', 'text/csv', '1'],
		]);
		const file = result.items[0].binary?.sources;
		expect(file?.mimeType).toBe('text/csv');
		const rows = Buffer.from(file?.data as string, 'base64')
			.toString('utf8')
			.trim()
			.split(/\r?\n/);
		expect(rows).toHaveLength(seed.sources.length + 1);
		expect(rows[0].split(',')).toEqual(expect.arrayContaining(['id', 'name']));
		for (const source of seed.sources)
			expect(
				rows.some((row) => row.startsWith(`${source.id},`) || row.includes(`,${source.id},`)),
			).toBe(true);
	});
});
