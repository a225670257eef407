import { runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Contract Template', () => {
	const { client, credentials } = useResourceFixture();

	it('lists contract templates sorted by name', async () => {
		const templates = await client.state('contract_templates');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'contractTemplate',
				operation: 'getAll',
				returnAll: false,
				limit: 10,
				options: { sortBy: 'name', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0]).toMatchObject({
			path: '/2025-09/contract_templates',
			query: { limit: '10', sort_by: 'name', sort_direction: 'ASC' },
		});
		const sorted = [...templates].sort((a, b) => String(a.name).localeCompare(String(b.name)));
		expect(result.items.map((item) => item.json)).toEqual(sorted);
	});
});
