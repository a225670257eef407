import type { SandboxClient, StateRecord } from '../sandbox/client';
import { locator, runStora, type CredentialStore } from './n8n';

/**
 * `count` copies of a seeded contact with their own IDs (`con_<prefix>000001`, ...) and e-mail addresses, and a use
 * case other than the one `updateContacts` sets, so every update is visible in the stored record.
 */
export async function insertContacts(client: SandboxClient, count: number, prefix: string): Promise<StateRecord[]> {
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
export async function updateContacts(client: SandboxClient, credentials: CredentialStore, contacts: StateRecord[]) {
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
