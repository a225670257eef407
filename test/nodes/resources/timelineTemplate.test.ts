import { runStora } from '../../helpers/n8n';
import { timelineRecords } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Timeline Template', () => {
	const { client, credentials } = useResourceFixture();
	let sources: StateRecord[];
	let templates: StateRecord[];
	let template: (name: string) => StateRecord;
	beforeEach(async () => ({ sources, templates, template } = await timelineRecords(client)));

	it('lists timeline sources and templates, and gets a template', async () => {
		const listed = await runStora({
			credentials: credentials(),
			parameters: { resource: 'timelineSource', operation: 'getAll', returnAll: true },
		});
		expect(listed.items.map((item) => item.json.id).sort()).toEqual(
			sources.map((s) => s.id).sort(),
		);

		const templateList = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineTemplate',
				operation: 'getAll',
				limit: 2,
				filters: { createdAfter: '2000-01-01T00:00:00.000Z' },
				options: { sortBy: 'created_at', sortDirection: 'ASC' },
			},
		});
		const oldest = [...templates].sort((a, b) =>
			String(a.created_at).localeCompare(String(b.created_at)),
		);
		expect(templateList.items.map((item) => item.json)).toEqual(oldest.slice(0, 2));

		const got = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineTemplate',
				operation: 'get',
				timelineTemplateId: template('Gate access').id,
			},
		});
		expect(got.items.map((item) => item.json)).toEqual([template('Gate access')]);

		expect((await client.requests()).map((r) => [r.path, r.query])).toEqual([
			[
				'/2025-09/timeline/sources',
				{ limit: '100', page: '1', sort_by: 'created_at', sort_direction: 'ASC' },
			],
			[
				'/2025-09/timeline/templates',
				{
					limit: '2',
					created_after: '2000-01-01T00:00:00.000Z',
					sort_by: 'created_at',
					sort_direction: 'ASC',
				},
			],
			[`/2025-09/timeline/templates/${template('Gate access').id}`, {}],
		]);
	});
});
