/**
 * The Rate Limit setting of the Stora credentials: the limits of a plan or agreement, or none, in real n8n (every
 * item of a node at once) against the sandbox over HTTP. The sandbox's request log (arrival times) says what the
 * server saw.
 */
import { RateLimitRegistry } from '../../../nodes/Stora/transport/rateLimit/registry';
import { UNPACED_IN_FLIGHT } from '../../../nodes/Stora/transport/rateLimit/policy';
import {
	arrivalSpan,
	busiestWindow,
	insertContacts,
	updateContacts,
	withPlan,
	withRateLimit,
} from '../../helpers/contactUpdates';
import type { CredentialStore } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';
import type { SandboxClient, StateRecord } from '../../../sandbox/client';
import { rateLimitFloorMs, recordFigures } from '../../helpers/figures';

jest.setTimeout(120_000);

/** Contact → Update over the first `count` contacts of the seed. */
async function updateSeedContacts(
	client: SandboxClient,
	credentials: CredentialStore,
	count: number,
) {
	const contacts: StateRecord[] = (await client.state('contacts')).slice(0, count);
	expect(contacts).toHaveLength(count);
	await client.clearRequests();
	return { contacts, ...(await updateContacts(client, credentials, contacts)) };
}

describe('credential Rate Limit, sandbox without limits', () => {
	const fixture = useSandboxForNode({ rateLimit: 'off' });

	it('Custom 5 per second: no second sees more than 5 requests', async () => {
		const credentials = withRateLimit(fixture.credentials(), {
			rateLimit: 'custom',
			requestsPerSecond: 5,
			requestsPerMinute: 0,
		});
		const { contacts, result, requests, state } = await updateSeedContacts(
			fixture.client,
			credentials,
			15,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(15);
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		expect(requests).toHaveLength(15);
		expect(busiestWindow(requests, 1000)).toBe(5);
	});

	it('Custom with no limits: more than the documented 10 requests arrive within a second', async () => {
		const credentials = withRateLimit(fixture.credentials(), {
			rateLimit: 'custom',
			requestsPerSecond: 0,
			requestsPerMinute: 0,
		});
		const { contacts, result, requests, state } = await updateSeedContacts(
			fixture.client,
			credentials,
			30,
		);
		expect(result.error).toBeUndefined();
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		expect(requests).toHaveLength(30);
		expect(busiestWindow(requests, 1000)).toBeGreaterThan(10);
	});

	it('a limit that is not a whole number of 0 or more fails before any request, naming the field', async () => {
		const credentials = withRateLimit(fixture.credentials(), {
			rateLimit: 'custom',
			requestsPerSecond: -1,
			requestsPerMinute: 60,
		});
		const { result, requests } = await updateSeedContacts(fixture.client, credentials, 2);
		expect(result.error?.message).toMatch(
			/Requests per Second in the Stora credential must be a whole number of 0 or more/,
		);
		expect(requests).toHaveLength(0);
	});
});

describe('credential Rate Limit below what Stora announces', () => {
	// Full headers: every answer carries RateLimit-Policy "10;w=1, 600;w=60".
	const fixture = useSandboxForNode({
		rateLimit: { perSecond: 10, perMinute: 600 },
		headers: 'full',
	});

	it("keeps to the credential's 5 per second although Stora announces 10 (a share of the account, say)", async () => {
		const credentials = withRateLimit(fixture.credentials(), {
			rateLimit: 'custom',
			requestsPerSecond: 5,
			requestsPerMinute: 0,
		});
		const { result, requests } = await updateSeedContacts(fixture.client, credentials, 15);
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(15);
		expect(busiestWindow(requests, 1000)).toBe(5);
		// Stora's bare RateLimit-Limit of 10 is its per-second limit, not a minute limit of 10.
		expect(busiestWindow(requests, 60_000)).toBe(15);
	});
});

describe('credential Rate Limit as a share of the account, many items, documented headers only', () => {
	// RateLimit-Limit and RateLimit-Reset only: the bare limit of 10 on every answer is the per-second window's.
	const fixture = useSandboxForNode({
		rateLimit: { perSecond: 10, perMinute: 600 },
		headers: 'documented',
	});

	it("updates 250 contacts at the credential's 5/s and 300/min with no 429, within 1.5 × the floor", async () => {
		const count = 250;
		const share = { perSecond: 5, perMinute: 300 };
		const contacts = await insertContacts(fixture.client, count, 'share');
		await fixture.client.clearRequests();
		const { result, seconds, requests, state } = await updateContacts(
			fixture.client,
			withPlan(fixture.credentials(), share),
			contacts,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(count);
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		const limited = requests.filter((request) => request.status === 429).length;
		expect(limited).toBe(0);
		expect(requests).toHaveLength(count);
		const busiestSecond = busiestWindow(requests, 1000);
		expect(busiestSecond).toBe(5);
		expect(busiestWindow(requests, 60_000)).toBeLessThanOrEqual(300);
		expect(busiestWindow(requests, 60_000)).toBeGreaterThan(10);
		// On the sandbox's clock (first to last arrival), against the least time 5/s allows. The budget holds each
		// request's place until its answer plus the window, so an answer taking L s stretches each second to 1 + L s:
		// 1.5 leaves half a second per answer on a loaded 2-core runner, ten times the tens of ms measured.
		const floor = rateLimitFloorMs(count, share) / 1000;
		const span = arrivalSpan(requests);
		expect(span).toBeLessThanOrEqual(floor * 1.5);
		recordFigures('reliability', 'credentialShare', {
			cells: [
				`${count} Contact → Update items with the credential's Rate Limit at half the account's (Custom ${share.perSecond}/s, ${share.perMinute}/min of 10/s, 600/min), documented headers only`,
				'`test/nodes/transport/credentialRateLimit.test.ts`',
				`all applied; at most ${busiestSecond} requests in any second; ${limited} answers 429; first to last request ${span.toFixed(1)} s against a floor of ${floor} s (${(span / floor).toFixed(2)} ×), ${seconds.toFixed(1)} s in all`,
			],
			figures: {
				items: count,
				busiestSecond,
				limited,
				spanSeconds: span,
				floorSeconds: floor,
				seconds,
			},
		});
	}, 180_000);
});

describe('credential Rate Limit set to none, sandbox at the documented 10/s and 60/min', () => {
	const fixture = useSandboxForNode({ rateLimit: 'default', headers: 'documented' });

	it('starts at full speed, paces by the documented limits after the first 429, and no 429 reaches the user', async () => {
		// The bare RateLimit-Limit on every answer does not say its window, so only the first 429 starts the pacing.
		const credentials = withRateLimit(fixture.credentials(), {
			rateLimit: 'custom',
			requestsPerSecond: 0,
			requestsPerMinute: 0,
		});
		const { contacts, result, requests, state } = await updateSeedContacts(
			fixture.client,
			credentials,
			25,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(25);
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		const limited = requests.filter((request) => request.status === 429).length;
		expect(requests.filter((request) => request.status === 200)).toHaveLength(25);
		// Only the requests already out when the first 429 came back can meet one.
		expect(limited).toBeLessThanOrEqual(UNPACED_IN_FLIGHT);
	});
});

describe('credential Rate Limit set to none: requests in flight', () => {
	it(`lets ${UNPACED_IN_FLIGHT} go at once and the next one when an answer comes`, async () => {
		const registry = new RateLimitRegistry();
		const slots = await Promise.all(
			Array.from(
				{ length: UNPACED_IN_FLIGHT },
				async () => await registry.acquire('k', { limits: [] }),
			),
		);
		let granted = false;
		const next = registry.acquire('k', { limits: [] }).then((slot) => {
			granted = true;
			return slot;
		});
		await Promise.resolve();
		expect(granted).toBe(false);
		expect(registry.snapshot('k')).toMatchObject({
			inFlight: UNPACED_IN_FLIGHT,
			queued: 1,
			windows: [],
		});
		registry.record(slots[0], 200, {});
		registry.record(await next, 200, {});
		expect(granted).toBe(true);
		for (const slot of slots.slice(1)) registry.record(slot, 200, {});
		// A bare limit does not say its window: still unpaced.
		registry.record(await registry.acquire('k', { limits: [] }), 200, {
			'RateLimit-Limit': '60',
			'RateLimit-Reset': '30',
		});
		expect(registry.snapshot('k').windows).toEqual([]);
		// A 429: paced by the documented windows from now on.
		expect(
			registry.record(await registry.acquire('k', { limits: [] }), 429, { 'Retry-After': '1' }),
		).toBeGreaterThan(0);
		expect(
			registry.snapshot('k').windows.map(({ limit, windowMs }) => ({ limit, windowMs })),
		).toEqual([
			{ limit: 10, windowMs: 1000 },
			{ limit: 60, windowMs: 60000 },
		]);
	});
});
