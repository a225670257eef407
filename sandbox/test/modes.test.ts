/**
 * The sandbox playing the three possible real APIs for members the docs do not list (accept / ignore / reject), the
 * documented-headers mode, and switching both on a running sandbox through the control plane.
 */
import { parseArgs } from '../cli';
import type { Json } from '../client';
import { manualClock, widgetsModule } from '../core/testing';
import { DOCUMENTED, documentedFor } from '../core/documented';
import { useSandboxWithClients } from './fixture';

const V = '/2025-09';

describe('unknown query parameters and body members', () => {
	const fx = useSandboxWithClients({ seed: 'demo' });
	let deals: Json[];
	let contacts: Json[];

	beforeEach(async () => {
		[deals, contacts] = await Promise.all([
			fx.control.state('deals'),
			fx.control.state('contacts'),
		]);
	});

	const ids = (records: Json[]) => records.map((r) => r.id).sort();
	const note = (extra: Record<string, unknown> = {}) => ({
		content: 'Called back',
		resource: { id: contacts[0].id },
		metadata: {},
		...extra,
	});

	test('accept (the default): the sandbox applies its own undocumented filters, sorts and cursor', async () => {
		expect(await fx.control.modes()).toEqual({
			unknown_params: 'accept',
			headers: 'full',
			retry_timestamp: 'fresh',
		});
		const won = await fx.api.get(`${V}/deals?status=won&limit=100`);
		expect(won.status).toBe(200);
		expect(ids(won.body.deals)).toEqual(ids(deals.filter((d) => d.status === 'won')));
		expect(won.body.deals.length).toBeLessThan(deals.length);
		// An unknown body member is refused by the sandbox's closed schema, as before.
		expect((await fx.api.post(`${V}/notes`, note({ colour: 'red' }))).status).toBe(422);
	});

	test('ignore: an undocumented filter, sort and created_after cursor are not applied; documented ones are', async () => {
		await fx.control.configure({ unknown_params: 'ignore' });
		// GET /deals documents page, limit and expand only (its page is cut off): status is dropped.
		const all = await fx.api.get(`${V}/deals?status=won&limit=100`);
		expect(all.status).toBe(200);
		expect(ids(all.body.deals)).toEqual(ids(deals));

		// GET /tasks documents page and limit only: sort_by/sort_direction/created_after change nothing.
		const plain = await fx.api.get(`${V}/tasks?limit=100`);
		const cursor = await fx.api.get(
			`${V}/tasks?limit=100&sort_by=created_at&sort_direction=ASC&created_after=2999-01-01T00:00:00Z`,
		);
		expect(cursor.status).toBe(200);
		expect(cursor.body.tasks.map((t: Json) => t.id)).toEqual(
			plain.body.tasks.map((t: Json) => t.id),
		);
		expect(cursor.body.tasks.length).toBeGreaterThan(0);

		// A documented filter still works (units: status is on the page).
		const occupied = await fx.api.get(`${V}/units?status=occupied&limit=100`);
		expect(occupied.body.units.length).toBeGreaterThan(0);
		expect(occupied.body.units.every((u: Json) => u.status === 'occupied')).toBe(true);

		// The request log still shows what was sent.
		const logged = (await fx.control.requests()).find((r) => r.path === `${V}/deals`);
		expect(logged?.query.status).toBe('won');

		// Undocumented body members are dropped before validation.
		const created = await fx.api.post(`${V}/notes`, note({ colour: 'red' }));
		expect(created.status).toBe(201);
		expect(created.body.note).not.toHaveProperty('colour');
		expect(created.body.note.content).toBe('Called back');
	});

	test('reject: 422 invalid_url_param naming each undocumented query parameter', async () => {
		await fx.control.configure({ unknown_params: 'reject' });
		const res = await fx.api.get(`${V}/deals?status=won&sort_by=created_at&limit=5`);
		expect(res.status).toBe(422);
		expect(res.body.error).toMatchObject({
			type: 'invalid_request_error',
			code: 'invalid_url_param',
		});
		expect(res.body.error.message).toMatch(/status/);
		expect(res.body.error.message).toMatch(/sort_by/);
		expect(res.body.error.details).toEqual([
			{ message: "The query parameter 'status' is not allowed", pointer: 'status' },
			{ message: "The query parameter 'sort_by' is not allowed", pointer: 'sort_by' },
		]);

		// Documented names pass: page/limit/expand on deals, metadata[...] and created_after on contacts.
		expect((await fx.api.get(`${V}/deals?page=1&limit=5&expand=contact`)).status).toBe(200);
		const tiered = await fx.api.get(`${V}/contacts?metadata[tier]=gold&created_after=2000-01-01`);
		expect(tiered.status).toBe(200);
		expect(tiered.body.contacts.length).toBeGreaterThan(0);
		// `expand` is not on the deal stages page.
		expect((await fx.api.get(`${V}/deals/stages?expand=x`)).body.error.details[0].pointer).toBe(
			'expand',
		);
	});

	test('reject: 422 invalid_content naming each undocumented body member', async () => {
		await fx.control.configure({ unknown_params: 'reject' });
		const res = await fx.api.post(`${V}/notes`, note({ colour: 'red' }));
		expect(res.status).toBe(422);
		expect(res.body.error.code).toBe('invalid_content');
		expect(res.body.error.message).toBe('Unknown body member: colour');
		expect(res.body.error.details).toEqual([
			{ message: "The property 'colour' is not allowed", pointer: '/colour' },
		]);
		expect((await fx.api.post(`${V}/notes`, note())).status).toBe(201);
		// Base prices take one member per billing period.
		const [unitType] = await fx.control.state('unit_types');
		expect(
			(
				await fx.api.post(`${V}/unit_types/${unitType.id}/base_price`, {
					monthly: { amount: 9900 },
				})
			).status,
		).toBe(200);
	});

	test('nested members: only the documented members of an object member the docs detail (order emails, inline contact)', async () => {
		const [site] = await fx.control.state('sites');
		const order = (extra: Record<string, unknown>) => ({ site: { id: site.id }, ...extra });
		await fx.control.configure({ unknown_params: 'reject' });
		const rejected = await fx.api.post(
			`${V}/orders`,
			order({
				emails: { booking_confirmation: true, payment_details: true },
				contact: { email: 'n@example.com', company_registration_number: '123' },
			}),
		);
		expect(rejected.status).toBe(422);
		expect(rejected.body.error.message).toBe(
			'Unknown body members: emails.payment_details, contact.company_registration_number',
		);
		expect(rejected.body.error.details).toEqual([
			{
				message: "The property 'emails.payment_details' is not allowed",
				pointer: '/emails/payment_details',
			},
			{
				message: "The property 'contact.company_registration_number' is not allowed",
				pointer: '/contact/company_registration_number',
			},
		]);
		const documented = order({
			emails: { booking_confirmation: true, move_in_day: false },
			contact: { email: 'n@example.com', address: { city: 'Leeds', country_alpha2: 'GB' } },
		});
		expect((await fx.api.post(`${V}/orders`, documented)).status).toBe(201);

		await fx.control.configure({ unknown_params: 'ignore' });
		const created = await fx.api.post(
			`${V}/orders`,
			order({ emails: { move_in_day: false, payment_details: false } }),
		);
		expect(created.status).toBe(201);
		expect(created.body.order.email_notifications).toMatchObject({ move_in_day: false });
		// Dropped before the handler, so the sandbox's default (true) applies.
		expect(created.body.order.email_notifications.payment_details).toBe(true);
	});

	test('the mode is switched on the running sandbox, validated, and kept across resets', async () => {
		const switched = {
			unknown_params: 'ignore',
			headers: 'documented',
			retry_timestamp: 'first',
		} as const;
		expect(await fx.control.configure(switched)).toEqual(switched);
		await fx.control.reset('demo');
		expect((await fx.control.info()).modes).toEqual(switched);
		const bad = await fx.api.post(
			'/__sandbox/config',
			{ unknown_params: 'maybe' },
			{ token: null },
		);
		expect(bad.status).toBe(422);
		expect(bad.body.error.details[0].pointer).toBe('/unknown_params');
		expect(
			(await fx.api.post('/__sandbox/config', { header: 'full' }, { token: null })).status,
		).toBe(422);
		expect(
			(await fx.api.post('/__sandbox/config', { retry_timestamp: 'last' }, { token: null })).body
				.error.details[0].pointer,
		).toBe('/retry_timestamp');
		expect(await fx.control.modes()).toEqual(switched);
		await fx.control.configure({ retry_timestamp: 'fresh' });
	});
});

describe('documented headers', () => {
	const time = manualClock('2025-06-01T12:00:00.000Z');
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		rateLimit: { perSecond: 1, perMinute: 100 },
	});

	test('full (the default): RateLimit-Remaining and RateLimit-Policy on answers and Retry-After on 429', async () => {
		const ok = await fx.call('GET', `${V}/widgets`);
		expect(ok.headers.get('ratelimit-remaining')).toBe('0');
		expect(ok.headers.get('ratelimit-policy')).toBe('1;w=1, 100;w=60');
		const limited = await fx.call('GET', `${V}/widgets`);
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('1');
	});

	test('documented: only RateLimit-Limit and RateLimit-Reset, also on 429', async () => {
		time.advance(1000);
		await fx.control.configure({ headers: 'documented' });
		const ok = await fx.call('GET', `${V}/widgets`);
		expect(ok.status).toBe(200);
		expect(ok.headers.get('ratelimit-limit')).toBe('1');
		expect(ok.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
		expect(ok.headers.has('ratelimit-remaining')).toBe(false);
		expect(ok.headers.has('ratelimit-policy')).toBe(false);
		const limited = await fx.call('GET', `${V}/widgets`);
		expect(limited.status).toBe(429);
		expect(limited.body.error.code).toBe('too_many_requests');
		expect(limited.headers.get('ratelimit-limit')).toBe('1');
		expect(limited.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
		expect(limited.headers.has('ratelimit-remaining')).toBe(false);
		expect(limited.headers.has('retry-after')).toBe(false);
	});
});

describe('modes as start options and CLI flags', () => {
	const fx = useSandboxWithClients({
		seed: 'demo',
		unknownParams: 'reject',
		headers: 'documented',
	});

	test('startSandbox options set the initial modes', async () => {
		expect(await fx.control.modes()).toEqual({
			unknown_params: 'reject',
			headers: 'documented',
			retry_timestamp: 'fresh',
		});
		expect((await fx.api.get(`${V}/sites?colour=red`)).status).toBe(422);
	});

	test('--unknown-params and --headers', () => {
		expect(parseArgs([])).toMatchObject({
			unknownParams: 'accept',
			headers: 'full',
			retryTimestamp: 'fresh',
		});
		expect(parseArgs(['--retry-timestamp=first'])).toMatchObject({ retryTimestamp: 'first' });
		expect(parseArgs(['--unknown-params', 'ignore', '--headers=documented'])).toMatchObject({
			unknownParams: 'ignore',
			headers: 'documented',
		});
	});

	test('the documented table covers every API route of the sandbox but the consent form', () => {
		const missing = fx.sandbox.core.router.routes
			.filter(
				(r) =>
					!documentedFor(r.method, r.pattern) &&
					!(r.method === 'POST' && r.pattern === '/oauth2/authorize'),
			)
			.map(
				(r) =>
					`${r.method} ${r.pattern}: add its documented query and body parameters to DOCUMENTED in sandbox/core/documented.ts (what the --unknown-params modes judge against)`,
			);
		expect(missing).toEqual([]);
		expect(Object.keys(DOCUMENTED).length).toBeGreaterThan(60);
	});
});
