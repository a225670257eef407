/** Deal stages (`/deals/stages`) over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let stages: Json[];

beforeEach(async () => {
	stages = await fx.api.state('stages');
});

const V = '/2025-09';

describe('deal stages', () => {
	test('list sorts by position; get; /deals/stages is not a deal id', async () => {
		const list = await fx.api.get(`${V}/deals/stages?sort_by=position&sort_direction=ASC`);
		expect(list.status).toBe(200);
		expect(list.body.stages.map((s: Json) => s.position)).toEqual([1, 2, 3, 5]);
		expect(Object.keys(list.body.stages[0]).sort()).toEqual([
			'created_at',
			'id',
			'name',
			'position',
			'updated_at',
		]);
		const one = await fx.api.get(`${V}/deals/stages/${stages[2].id}`);
		expect(one.body.stage).toMatchObject({ id: stages[2].id, name: 'Quote sent' });
		expect((await fx.api.get(`${V}/deals/stages/dstg_nope`)).status).toBe(404);
		const noScope = await fx.api.token(['public.deal:read']);
		const forbidden = await fx.api.get(`${V}/deals/stages`, { token: noScope });
		expect(forbidden.status).toBe(403);
		expect(forbidden.body.error.message).toContain('public.deal_stage:read');
	});
});
