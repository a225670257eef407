/** Identity verifications (`/identity_verifications`) over real HTTP. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

const V = '/2025-09';

describe('identity verifications', () => {
	test('list by contact and status, get, 404', async () => {
		const all = await fx.api.state('identity_verifications');
		const failed = await fx.api.get(`${V}/identity_verifications?status=failed`);
		expect(failed.body.identity_verifications.map((v: Json) => v.error_code).sort()).toEqual([
			'document_expired',
			'selfie_mismatch',
		]);
		const byContact = await fx.api.get(
			`${V}/identity_verifications?contact_id=${all[0].contact.id}`,
		);
		expect(byContact.body.identity_verifications.map((v: Json) => v.id)).toEqual([all[0].id]);
		const one = await fx.api.get(`${V}/identity_verifications/${all[4].id}?expand=contact`);
		expect(one.body.identity_verification).toMatchObject({
			status: 'processing',
			error_code: null,
			contact: { id: all[4].contact.id, email: expect.any(String) },
		});
		expect(Object.keys(all[0]).sort()).toEqual([
			'contact',
			'created_at',
			'error_code',
			'id',
			'status',
			'updated_at',
		]);
		expect((await fx.api.get(`${V}/identity_verifications/idver_nope`)).status).toBe(404);
	});
});
