/** Timeline templates (`/timeline/templates`) over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });

const V = '/2025-09';

describe('timeline', () => {
	test('templates list with created window; get template', async () => {
		const templates = await fx.api.state('templates');
		const recent = await fx.api.get(
			`${V}/timeline/templates?created_after=${templates[1].created_at}`,
		);
		expect(recent.body.templates.map((t: Json) => t.id).sort()).toEqual(
			[templates[1].id, templates[2].id].sort(),
		);
		const one = await fx.api.get(`${V}/timeline/templates/${templates[0].id}`);
		expect(one.body.template).toMatchObject({
			name: 'Gate access',
			variables: { custom: ['gate'], predefined: ['contact', 'site'] },
		});
		expect((await fx.api.get(`${V}/timeline/templates/aetpl_nope`)).status).toBe(404);
	});
});
