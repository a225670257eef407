import { Stora } from '../../../nodes/Stora/Stora.node';
import { runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Deal Stage', () => {
	const { client, credentials, seed } = useResourceFixture('deals', 'stages');

	it('lists the stages in pipeline order', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'dealStage',
				operation: 'getAll',
				returnAll: true,
				options: { sortBy: 'position', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		const ordered = [...seed.stages].sort((a, b) => Number(a.position) - Number(b.position));
		expect(result.items.map((item) => item.json)).toEqual(ordered);
		expect((await client.requests())[0]).toMatchObject({
			path: '/2025-09/deals/stages',
			query: { sort_by: 'position', sort_direction: 'ASC', limit: '100' },
		});
	});

	it('sends only the documented page, limit, sort_by and sort_direction, also where the API rejects anything else', async () => {
		await client.configure({ unknown_params: 'reject' });
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'dealStage',
				operation: 'getAll',
				limit: 3,
				// Left over from a workflow saved with the old date filters: no longer a parameter, so never sent.
				filters: {
					createdAfter: '2020-01-01T00:00:00.000Z',
					updatedBefore: '2030-01-01T00:00:00.000Z',
				},
				options: { sortBy: 'updated_at', sortDirection: 'ASC' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		const all = await runStora({
			credentials: credentials(),
			parameters: { resource: 'dealStage', operation: 'getAll', returnAll: true },
		});
		expect(all.error).toBeUndefined();
		expect(all.items).toHaveLength(seed.stages.length);
		expect((await client.requests()).map((request) => request.query)).toEqual([
			{ limit: '3', sort_by: 'updated_at', sort_direction: 'ASC' },
			{ limit: '100', page: '1', sort_by: 'created_at', sort_direction: 'ASC' },
		]);
		const stageListFields = new Stora().description.properties.filter(
			(property) =>
				property.displayOptions?.show?.resource?.includes('dealStage') &&
				property.displayOptions.show.operation?.includes('getAll'),
		);
		expect(stageListFields.map((property) => property.name)).not.toContain('filters');
	});

	it('Return All over more than 100 stages sends only the documented page, limit and sort (no created_after cursor)', async () => {
		const [template] = await client.state('stages');
		const extra = Array.from({ length: 120 }, (_, n) => {
			const record: Record<string, unknown> = {
				...template,
				name: `Extra stage ${n}`,
				position: 100 + n,
			};
			delete record.id;
			return record;
		});
		await client.insert('stages', extra);
		const stages = await client.state('stages');
		await client.clearRequests();
		const all = await runStora({
			credentials: credentials(),
			parameters: { resource: 'dealStage', operation: 'getAll', returnAll: true },
		});
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json.id).sort()).toEqual(
			stages.map((stage) => stage.id).sort(),
		);
		const sent = (await client.requests()).map((request) => request.query);
		expect(sent.length).toBeGreaterThanOrEqual(2);
		for (const query of sent)
			expect(Object.keys(query).sort()).toEqual(['limit', 'page', 'sort_by', 'sort_direction']);
		expect(sent.map((query) => query.page)).toEqual(sent.map((_, n) => String(n + 1)));
	});

	it('gets a stage chosen in the dropdown, and rejects another kind of ID before any request', async () => {
		const ok = await runStora({
			credentials: credentials(),
			parameters: { resource: 'dealStage', operation: 'get', dealStageId: seed.stages[2].id },
		});
		expect(ok.items.map((item) => item.json)).toEqual([seed.stages[2]]);
		expect((await client.requests()).map((r) => r.path)).toEqual([
			`/2025-09/deals/stages/${seed.stages[2].id}`,
		]);

		await client.clearRequests();
		const bad = await runStora({
			credentials: credentials(),
			parameters: { resource: 'dealStage', operation: 'get', dealStageId: seed.deals[0].id },
		});
		expect(bad.error?.message).toBe(`Stage: "${seed.deals[0].id}" is not a stage ID`);
		expect(await client.requests()).toEqual([]);
	});
});
