/**
 * helpers/body.ts, how a Create / Update body is built beyond n8n's routing: an optional field added and left empty
 * is not sent (as in n8n's own nodes), and key/value rows (metadata) go as one object, keys kept literally.
 */
import { runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('body', () => {
	const fixture = useSandboxForNode();

	it('takes optional fields added and left empty (Assignee ID, Linked Record ID, Site) as not set', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'task',
				operation: 'create',
				title: 'Call back',
				additionalFields: { assigneeId: '', resourceId: '  ', siteId: '' },
			},
		});
		expect(result.error).toBeUndefined();
		const [post] = (await fixture.client.requests()).filter((request) => request.method === 'POST');
		expect(post.body).toEqual({ title: 'Call back' });
		expect(result.items[0].json).toMatchObject({ title: 'Call back' });
	});

	it('sends metadata rows as one object, keys with dots or brackets literal, rows without a key left out', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'task',
				operation: 'create',
				title: 'Call back',
				additionalFields: {
					metadata: {
						entry: [
							{ key: 'crm.id', value: '42' },
							{ key: 'tags[0]', value: 'vip' },
							{ key: '', value: 'no key' },
						],
					},
				},
			},
		});
		expect(result.error).toBeUndefined();
		const [post] = (await fixture.client.requests()).filter((request) => request.method === 'POST');
		expect(post.body).toEqual({
			title: 'Call back',
			metadata: { 'crm.id': '42', 'tags[0]': 'vip' },
		});
	});
});
