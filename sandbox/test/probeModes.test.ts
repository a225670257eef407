/**
 * The modes `npm run probe` is tested under: per-list readings of single query parameters
 * (`param_readings`, core/readings.ts), the unknown-params mode per path, and the webhook signature's `t` unit and
 * `v1` encoding. Off by default: a sandbox nobody switches answers as before.
 */
import { sign } from '../core/webhooks';
import { startReceiver, type Receiver } from '../core/testing';
import type { Json } from '../client';
import { useSandboxWithClients } from './fixture';

const V = '/2025-09';
const ids = (records: Json[]) => records.map((record: Json) => record.id as string);

describe('probe modes', () => {
	const fx = useSandboxWithClients({ seed: 'demo', allowHttpWebhooks: true });
	const configure = async (body: Record<string, unknown>) =>
		await fx.api.post('/__sandbox/config', body, { token: null });

	afterEach(async () => {
		await configure({
			unknown_params: {},
			param_readings: {},
			signature_timestamp: 'seconds',
			signature_encoding: 'hex',
		});
	});

	test('defaults: the config answer and the lists are as before', async () => {
		expect(await fx.control.modes()).toEqual({
			unknown_params: 'accept',
			headers: 'full',
			retry_timestamp: 'fresh',
		});
		const units = await fx.api.get(`${V}/units?status=occupied&limit=100`);
		expect(units.body.units.length).toBeGreaterThan(0);
		expect(units.body.units.every((unit: Json) => unit.status === 'occupied')).toBe(true);
	});

	test('ignore drops a documented filter on one list only', async () => {
		const all = await fx.api.get(`${V}/units?limit=100`);
		const changed = await configure({ param_readings: { [`${V}/units`]: { status: 'ignore' } } });
		expect(changed.body.param_readings).toEqual({ [`${V}/units`]: { status: 'ignore' } });
		const ignored = await fx.api.get(`${V}/units?status=occupied&limit=100`);
		expect(ids(ignored.body.units)).toEqual(ids(all.body.units));
		// Another list keeps its status filter.
		const deals = await fx.api.get(`${V}/deals?status=won&limit=100`);
		expect(deals.body.deals.every((deal: Json) => deal.status === 'won')).toBe(true);
	});

	test('reject answers 422 naming the parameter; `*` leaves page and limit alone unless named', async () => {
		await configure({
			param_readings: { [`${V}/units`]: { '*': 'reject' }, [`${V}/deals`]: { limit: 'reject' } },
		});
		const refused = await fx.api.get(`${V}/units?site_id=site_x&limit=5`);
		expect(refused.status).toBe(422);
		expect(refused.body.error.code).toBe('invalid_url_param');
		expect(refused.body.error.details).toEqual([
			{ message: "The query parameter 'site_id' is not allowed", pointer: 'site_id' },
		]);
		const paged = await fx.api.get(`${V}/units?limit=2&page=2`);
		expect(paged.status).toBe(200);
		expect(paged.body.units).toHaveLength(2);
		expect((await fx.api.get(`${V}/deals?limit=2`)).body.error.details[0].pointer).toBe('limit');
	});

	test('metadata[] covers every metadata key', async () => {
		await configure({ param_readings: { [`${V}/contacts`]: { 'metadata[]': 'reject' } } });
		const refused = await fx.api.get(`${V}/contacts?metadata%5Bcrm_ref%5D=x`);
		expect(refused.body.error.details[0].pointer).toBe('metadata[crm_ref]');
	});

	test('honour wins over the unknown-params mode and applies what the list does not implement', async () => {
		const units = await fx.api.state('units');
		await configure({ unknown_params: 'reject' });
		expect((await fx.api.get(`${V}/units?sort_by=updated_at`)).status).toBe(422);
		// A sort value the units list does not offer, and a filter it does not have (reference_id), honoured.
		await configure({ param_readings: { [`${V}/units`]: { '*': 'honour' } } });
		const sorted = await fx.api.get(`${V}/units?sort_by=updated_at&sort_direction=ASC&limit=100`);
		expect(sorted.status).toBe(200);
		const times = sorted.body.units.map((unit: Json) => Date.parse(unit.updated_at));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		const wanted = units[3].reference_id;
		const filtered = await fx.api.get(`${V}/units?reference_id=${encodeURIComponent(wanted)}`);
		expect(filtered.body.units.map((unit: Json) => unit.reference_id)).toEqual([wanted]);
		await configure({ unknown_params: 'accept' });
	});

	test('unknown_params by path: one list rejects, another ignores, the rest keep the global mode', async () => {
		const changed = await configure({
			unknown_params: { [`${V}/deals`]: 'reject', [`${V}/tasks`]: 'ignore' },
		});
		expect(changed.body.unknown_params).toBe('accept');
		expect(changed.body.unknown_params_by_path).toEqual({
			[`${V}/deals`]: 'reject',
			[`${V}/tasks`]: 'ignore',
		});
		expect((await fx.api.get(`${V}/deals?status=won`)).body.error.details[0].pointer).toBe(
			'status',
		);
		const tasks = await fx.api.get(`${V}/tasks?status=open&limit=100`);
		expect(new Set(tasks.body.tasks.map((task: Json) => task.status)).size).toBeGreaterThan(1);
		const contacts = await fx.api.get(`${V}/contacts?type=company&limit=100`);
		expect(contacts.body.contacts.every((contact: Json) => contact.type === 'company')).toBe(true);
		// A reset keeps the modes, like the others.
		await fx.control.reset('demo');
		expect((await fx.api.get(`${V}/deals?status=won`)).status).toBe(422);
	});

	test('bad values are refused and change nothing', async () => {
		for (const [body, pointer] of [
			[{ param_readings: { [`${V}/units`]: { status: 'drop' } } }, '/param_readings'],
			[{ param_readings: { units: { status: 'ignore' } } }, '/param_readings'],
			[{ unknown_params: { [`${V}/units`]: 'maybe' } }, '/unknown_params'],
			[{ signature_timestamp: 'minutes' }, '/signature_timestamp'],
			[{ signature_encoding: 'base32' }, '/signature_encoding'],
		] as const) {
			const answer = await configure(body);
			expect(answer.status).toBe(422);
			expect(answer.body.error.details[0].pointer).toBe(pointer);
		}
		expect(await fx.control.modes()).toEqual({
			unknown_params: 'accept',
			headers: 'full',
			retry_timestamp: 'fresh',
		});
	});

	describe('signature encodings', () => {
		let receiver: Receiver;
		beforeEach(async () => {
			receiver = await startReceiver();
		});
		afterEach(async () => await receiver.close());

		test.each([
			['seconds', 'hex'],
			['milliseconds', 'hex'],
			['seconds', 'base64'],
			['milliseconds', 'base64'],
		] as const)('t in %s, v1 as %s', async (unit, encoding) => {
			const changed = await configure({ signature_timestamp: unit, signature_encoding: encoding });
			expect(changed.status).toBe(200);
			const created = await fx.api.post(`${V}/webhook_endpoints`, {
				name: 'Probe',
				api_version: '2025-09',
				url: receiver.url,
				event_types: ['contact.created'],
			});
			const secret = created.body.endpoint.secret as string;
			const before = Date.now();
			await fx.api.post(`${V}/contacts`, {
				email: `probe-${unit}-${encoding}@example.com`,
				full_name: 'Probe',
			});
			await fx.sandbox.whenDeliveriesIdle();
			expect(receiver.received).toHaveLength(1);
			const [{ headers, body }] = receiver.received;
			const match = /^t=(\d+),v1=(.+)$/.exec(String(headers['x-stora-signature']))!;
			const t = Number(match[1]);
			const ms = unit === 'milliseconds' ? t : t * 1000;
			expect(Math.abs(ms - before)).toBeLessThan(5_000);
			expect(match[1]).toHaveLength(unit === 'milliseconds' ? 13 : 10);
			expect(match[2]).toBe(sign(secret, t, body, encoding));
			expect(match[2]).not.toBe(sign(secret, t, body, encoding === 'hex' ? 'base64' : 'hex'));
			expect(fx.sandbox.deliveries()[0].timestamp).toBe(t);
		});
	});
});
