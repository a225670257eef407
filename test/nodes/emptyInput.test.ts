/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published */
/**
 * Empty values, as a newcomer makes them: a required field whose expression reads a field the item does not have, a
 * blank required field, and an optional field added and left empty. The first two fail before any request, naming
 * the field, the item and what gave the value, and say that nothing reached Stora (n8n shows a declarative node's
 * own checks as an API error); the last is not set, as in n8n's own nodes.
 */
import { createServer } from 'node:http';

import { NOTHING_SENT } from '../../nodes/Stora/helpers/validation';
import { locator, runStora, tokenCredentials } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';

describe('empty input', () => {
	const fixture = useSandboxForNode();
	const description = (error: unknown) => String((error as { description?: string } | undefined)?.description);

	it('fails a required Title whose expression gives nothing before any request, naming the field, item and expression', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.fullname }}' },
			items: [{ full_name: 'Ada Lovelace' }],
		});
		expect(result.error?.message).toBe('Title is empty for item 0: its expression gave no value');
		expect(description(result.error)).toContain('"{{ $json.fullname }}"');
		expect(description(result.error)).toContain(NOTHING_SENT);
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('fails a blank required Title, and names the item that is empty when others are not', async () => {
		const blank = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'create', title: '   ' },
		});
		expect(blank.error?.message).toBe('Title is empty for item 0');
		expect(description(blank.error)).toContain('Fill in Title');

		const second = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'create', title: '={{ $json.name }}' },
			items: [{ name: 'Call Ada' }, { name: '' }],
		});
		expect(second.error?.message).toBe('Title is empty for item 1: its expression gave no value');
		// n8n sends the items' requests together: the first item's task may be created; the second never is.
		expect((await fixture.client.requests()).filter((request) => request.method === 'POST').length).toBeLessThanOrEqual(1);
	});

	it('fails an empty required record before any request, naming it (a locator whose expression gives nothing)', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'contact', operation: 'get', contactId: locator('={{ $json.contact }}') },
			items: [{ contact_id: 'con_x' }],
		});
		expect(result.error?.message).toBe('Contact is empty for item 0: its expression gave no value');
		expect(await fixture.client.requests()).toEqual([]);
	});

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

	it('still refuses a wrong ID in a plain ID field, without pointing to a list it does not have', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'create', title: 'Call back', additionalFields: { assigneeId: 'con_abc' } },
		});
		expect(result.error?.message).toBe('Assignee: "con_abc" is not an assignee ID');
		expect(description(result.error)).toContain('Paste the ID as Stora shows it.');
		expect(description(result.error)).not.toContain('from the list');
		expect(await fixture.client.requests()).toEqual([]);
	});
});

describe('a Base URL that is not the API', () => {
	it('says to check the Base URL when the address answers 404 without Stora\'s error format', async () => {
		const server = createServer((_request, response) => response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>'));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		try {
			const result = await runStora({
				credentials: tokenCredentials(`http://127.0.0.1:${port}/some/path`, 'tok_abc'),
				parameters: { resource: 'site', operation: 'getAll', limit: 1 },
			});
			expect(result.error?.message).toBe('Stora answered with HTTP 404 and no error details');
			expect(String((result.error as { description?: string }).description)).toContain("check the credential's Base URL");
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});
