/** Timeline sources (`/timeline/sources`) over real HTTP. */
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });

const V = '/2025-09';

describe('timeline', () => {
	test('sources list', async () => {
		const sources = await fx.api.get(`${V}/timeline/sources`);
		expect(sources.body.sources).toHaveLength(3);
		expect(Object.keys(sources.body.sources[0]).sort()).toEqual([
			'created_at',
			'global',
			'id',
			'name',
			'updated_at',
			'website_url',
		]);
	});
});
