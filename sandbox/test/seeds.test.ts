/** The seeds over real HTTP: staff, the empty seed (no CRM, no billing records), the demo seed's determinism and the demo seed without CRM. */
import type { Json } from '../client';
import { useSandboxWithClients, withSandbox } from './fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

const V = '/2025-09';

describe('staff and the empty seed', () => {
	test('staff has no routes but is expandable with public.staff:read', async () => {
		expect((await fx.api.get(`${V}/staff`)).status).toBe(404);
		const staff = await fx.api.state('staff');
		expect(staff.length).toBeGreaterThanOrEqual(3);
		expect(staff.every((s: Json) => /^staff_/.test(s.id) && s.name && s.email)).toBe(true);
	});

	test('the empty seed has no CRM records; creating still works', async () => {
		await fx.api.reset('empty');
		try {
			for (const path of [
				'contacts',
				'deals',
				'deals/stages',
				'tasks',
				'notes',
				'timeline/sources',
				'timeline/templates',
				'contracts',
				'contract_templates',
				'identity_verifications',
			]) {
				const res = await fx.api.get(`${V}/${path}`);
				expect([path, res.body.meta.pagination.count]).toEqual([path, 0]);
			}
			const contact = await fx.api.post(`${V}/contacts`, { email: 'first@example.com' });
			expect(contact.status).toBe(201);
			const deal = await fx.api.post(`${V}/deals`, { contact: { id: contact.body.contact.id } });
			expect(deal.status).toBe(422);
			expect(deal.body.error.details[0].message).toMatch(/stage/);
		} finally {
			await fx.api.reset('demo');
		}
	});

	test('the demo seed is deterministic across resets', async () => {
		const before = await fx.api.state('contacts');
		await fx.api.reset('demo');
		const after = await fx.api.state('contacts');
		expect(after.map((c: Json) => [c.id, c.email])).toEqual(
			before.map((c: Json) => [c.id, c.email]),
		);
	});
});

describe('other seeds', () => {
	test("the 'empty' seed has no billing records", async () => {
		await withSandbox({ seed: 'empty' }, async (empty) => {
			for (const path of [
				'sites',
				'unit_types',
				'units',
				'orders',
				'invoices',
				'subscriptions',
				'coupons',
				'products',
			]) {
				const response = await fetch(`${empty.url}/2025-09/${path}`, {
					headers: { Authorization: `Bearer ${empty.token}` },
				});
				const body = (await response.json()) as Json;
				expect(body.meta.pagination.count).toBe(0);
			}
		});
	});

	test('without CRM contacts the demo seed skips contact-dependent records but still has 260+ orders', async () => {
		const [{ modules: inventory }, { modules: billing }] = await Promise.all([
			import('../resources/inventory'),
			import('../resources/billing'),
		]);
		await withSandbox({ seed: 'demo', modules: [...inventory, ...billing] }, async (alone) => {
			const get = async (path: string) =>
				(await (
					await fetch(`${alone.url}/2025-09/${path}`, {
						headers: { Authorization: `Bearer ${alone.token}` },
					})
				).json()) as Json;
			expect((await get('sites')).sites).toHaveLength(4);
			expect((await get('tenancies')).meta.pagination.count).toBe(0);
			expect((await get('invoices')).meta.pagination.count).toBe(0);
			expect((await get('units?status=occupied')).meta.pagination.count).toBe(0);
			const orders = await get('orders?limit=100');
			expect(orders.meta.pagination.count).toBeGreaterThanOrEqual(260);
			expect((orders.orders as Json[]).every((o) => o.contact === null)).toBe(true);
		});
	});
});
