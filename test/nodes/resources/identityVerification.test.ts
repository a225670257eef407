import { searchIdentityVerifications } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { runStora } from '../../helpers/n8n';
import { idOf } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Identity Verification', () => {
	const { client, credentials, seed } = useResourceFixture('contacts');
	const lists = () =>
		loadOptionsContext(credentials(), { resource: 'identityVerification', operation: 'get' });

	it('gets many verifications of given contacts and statuses, with the contact expanded', async () => {
		const checks = await client.state('identity_verifications');
		const contactIds = seed.contacts.slice(0, 6).map((c) => c.id);
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'identityVerification',
				operation: 'getAll',
				returnAll: true,
				filters: { contactIds: contactIds.join(','), status: ['failed', 'processing'] },
				options: { expand: ['contact'] },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0]).toMatchObject({
			path: '/2025-09/identity_verifications',
			query: { contact_id: contactIds.join(','), status: 'failed,processing', expand: 'contact' },
		});
		const expected = checks.filter(
			(c) =>
				contactIds.includes(String(idOf(c.contact))) &&
				['failed', 'processing'].includes(String(c.status)),
		);
		expect(expected).toHaveLength(3);
		expect(result.items.map((item) => item.json.id).sort()).toEqual(
			expected.map((c) => c.id).sort(),
		);
		for (const item of result.items) {
			const contact = item.json.contact as StateRecord;
			expect(contact).toEqual(seed.contacts.find((c) => c.id === contact.id));
		}
	});

	it('gets one verification picked from the list', async () => {
		const checks = await client.state('identity_verifications');
		const failed = checks.find((c) => c.status === 'failed')!;
		const { results } = await searchIdentityVerifications.call(lists(), idOf(failed.contact));
		expect(results).toEqual([
			{ name: `${String(idOf(failed.contact))} – failed`, value: failed.id, url: undefined },
		]);

		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'identityVerification',
				operation: 'get',
				identityVerificationId: { __rl: true, mode: 'list', value: results[0].value },
			},
		});
		expect(result.items.map((item) => item.json)).toEqual([failed]);
		expect((await client.requests()).map((r) => r.path)).toEqual([
			'/2025-09/identity_verifications',
			`/2025-09/identity_verifications/${failed.id}`,
		]);
	});
});
