import { runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

/** Contact → Get Many; the other operations of Contact are in contact.test.ts. */
describe('Stora node: Contact', () => {
	const { client, credentials, seed } = useResourceFixture('contacts');

	describe('Get Many', () => {
		it('sends every filter as the query the API documents and returns the matching contacts', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: 100,
					filters: {
						status: ['customer', 'churned'],
						type: ['domestic', 'unspecified'],
						source: ['pre_open', 'unspecified'],
						marketingSource: ['google_search', 'used_before', 'unspecified'],
						useCase: ['business_needs', 'moving_home', 'unspecified'],
						createdAfter: '2000-01-01T00:00:00.000Z',
						updatedBefore: '2100-01-01T00:00:00.000Z',
						metadata: { entry: [{ key: 'tier', value: 'gold' }] },
					},
					options: { sortBy: 'full_name', sortDirection: 'ASC' },
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.path).toBe('/2025-09/contacts');
			expect(request.query).toEqual({
				limit: '100',
				status: 'customer,churned',
				type: 'domestic,unspecified',
				source: 'pre_open,unspecified',
				marketing_source: 'google_search,used_before,unspecified',
				use_case: 'business_needs,moving_home,unspecified',
				created_after: '2000-01-01T00:00:00.000Z',
				updated_before: '2100-01-01T00:00:00.000Z',
				'metadata[tier]': 'gold',
				sort_by: 'full_name',
				sort_direction: 'ASC',
			});
			const inSet = (value: unknown, set: string[]) =>
				value === null ? set.includes('unspecified') : set.includes(String(value));
			const expected = seed.contacts
				.filter(
					(c) =>
						['customer', 'churned'].includes(String(c.status)) &&
						inSet(c.type, ['domestic', 'unspecified']) &&
						inSet(c.source, ['pre_open', 'unspecified']) &&
						inSet(c.marketing_source, ['google_search', 'used_before', 'unspecified']) &&
						inSet(c.use_case, ['business_needs', 'moving_home', 'unspecified']) &&
						(c.metadata as Record<string, unknown>).tier === 'gold',
				)
				.map((c) => String(c.full_name))
				.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
			expect(expected.length).toBeGreaterThan(0);
			expect(result.items.map((item) => item.json.full_name)).toEqual(expected);
		});

		it('refuses a metadata filter key longer than 255 characters before any request, naming the filter', async () => {
			const key = 'k'.repeat(256);
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'getAll', limit: 10, filters: { metadata: { entry: [{ key, value: 'gold' }] } } },
			});
			expect(result.error?.message).toMatch(/^Metadata: the key "k+\.\.\." is 256 characters long$/);
			expect(await client.requests()).toEqual([]);
			// 255 is still sent.
			const longest = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'getAll', limit: 10, filters: { metadata: { entry: [{ key: key.slice(1), value: 'gold' }] } } },
			});
			expect(longest.error).toBeUndefined();
			expect((await client.requests()).map((request) => Object.keys(request.query))).toEqual([['limit', `metadata[${key.slice(1)}]`]]);
		});

		it('finds contacts by exact email (comma-separated) and by fuzzy search', async () => {
			const emails = [seed.contacts[4].email, seed.contacts[9].email].join(',');
			const byEmail = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'getAll', limit: 10, filters: { email: emails } },
			});
			expect(byEmail.items.map((item) => item.json.id).sort()).toEqual([seed.contacts[4].id, seed.contacts[9].id].sort());

			const bySearch = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'getAll', limit: 50, filters: { search: 'olivia' } },
			});
			const olivias = seed.contacts.filter((c) => /olivia/i.test(`${String(c.full_name)} ${String(c.email)}`));
			expect(bySearch.items.map((item) => item.json.id).sort()).toEqual(olivias.map((c) => c.id).sort());

			const queries = (await client.requests()).map((request) => request.query);
			expect(queries).toEqual([
				{ limit: '10', email: emails },
				{ limit: '50', search: 'olivia' },
			]);
		});

		it('returns all contacts across pages', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'getAll', returnAll: true, filters: { status: ['lead'] } },
			});
			expect(result.error).toBeUndefined();
			const leads = seed.contacts.filter((c) => c.status === 'lead').map((c) => c.id);
			expect(result.items.map((item) => item.json.id).sort()).toEqual(leads.sort());
			for (const request of await client.requests())
				expect(request.query).toMatchObject({ status: 'lead', limit: '100' });
		});

		it('exports the contacts as a CSV file', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 5,
					filters: { status: ['churned'] },
					outputFormat: 'csv',
					binaryPropertyName: 'contacts',
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.headers.accept).toBe('text/csv');
			const binary = result.items[0].binary?.contacts;
			expect(binary?.mimeType).toBe('text/csv');
			const lines = Buffer.from(binary!.data, 'base64').toString('utf8').trim().split('\n');
			expect(lines[0]).toContain('email');
			expect(lines).toHaveLength(1 + 5);
		});
	});
});
