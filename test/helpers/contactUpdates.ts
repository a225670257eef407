import type { SandboxClient, StateRecord } from '../sandbox/client';
import { locator, runStora, type CredentialStore } from './n8n';

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
