import type { RequestLogEntry, SandboxClient, StateRecord } from '../../sandbox/client';
import { locator, runStora, type CredentialStore } from './n8n';

/** The store's Stora API credential with its Rate Limit set as a user sets it (README, "Rate Limit (both credentials)"). */
export function withRateLimit(
	store: CredentialStore,
	settings: Record<string, string | number>,
): CredentialStore {
	return { storaApi: { ...store.storaApi, ...settings } };
}

/** The store's credential set to a plan's limits: Rate Limit Custom, Requests per Second and per Minute. */
export const withPlan = (store: CredentialStore, plan: { perSecond: number; perMinute: number }) =>
	withRateLimit(store, {
		rateLimit: 'custom',
		requestsPerSecond: plan.perSecond,
		requestsPerMinute: plan.perMinute,
	});

/** The most requests that arrived within any `windowMs` (the sandbox's log of arrival times). */
export function busiestWindow(requests: RequestLogEntry[], windowMs: number): number {
	const times = requests.map((request) => Date.parse(request.at)).sort((a, b) => a - b);
	let most = 0;
	for (let first = 0, last = 0; last < times.length; last++) {
		while (times[last] - times[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

/** Seconds from the first request's arrival to the last's, on the sandbox's clock (its request log). */
export function arrivalSpan(requests: RequestLogEntry[]): number {
	const times = requests.map((request) => Date.parse(request.at));
	return times.length ? (Math.max(...times) - Math.min(...times)) / 1000 : 0;
}

/**
 * `count` copies of a seeded contact with their own IDs (`con_<prefix>000001`, ...) and e-mail addresses, and a use
 * case other than the one `updateContacts` sets, so every update is visible in the stored record.
 */
export async function insertContacts(
	client: SandboxClient,
	count: number,
	prefix: string,
): Promise<StateRecord[]> {
	const [template] = await client.state('contacts');
	const records = Array.from({ length: count }, (_, index) => ({
		...template,
		id: `con_${prefix}${String(index).padStart(6, '0')}`,
		email: `${prefix}.${index}@example.com`,
		use_case: 'refurb',
	}));
	return await client.insert('contacts', records);
}

/**
 * One Contact → Update node over one item per contact (use case set to "travelling"), as many tests of many items
 * run it; returns the node's result, the PATCHes the sandbox saw and the contacts as stored afterwards.
 */
export async function updateContacts(
	client: SandboxClient,
	credentials: CredentialStore,
	contacts: StateRecord[],
) {
	const started = Date.now();
	const result = await runStora({
		credentials,
		items: contacts.map((contact) => ({ id: contact.id })),
		parameters: {
			resource: 'contact',
			operation: 'update',
			contactId: locator('={{ $json.id }}'),
			updateFields: { useCase: 'travelling' },
		},
	});
	const seconds = (Date.now() - started) / 1000;
	const requests = (await client.requests()).filter((request) => request.method === 'PATCH');
	const state = new Map((await client.state('contacts')).map((contact) => [contact.id, contact]));
	return { result, seconds, requests, state };
}
