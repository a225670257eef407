/**
 * helpers/ids.ts: a record ID of the wrong kind fails before any request, naming the parameter: typed (n8n's locator
 * pattern, from the same prefixes), from an expression, or in a plain ID field that has no list to pick from.
 */
import { runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('record IDs of the wrong kind', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;
	const credentials = () => fixture.credentials();
	const description = (error: unknown) =>
		String((error as { description?: string } | undefined)?.description);

	it('refuses to start with a typed ID of the wrong prefix (n8n checks the locator pattern)', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: { __rl: true, mode: 'id', value: 'con_123' },
			},
		});
		expect(result.error?.message).toContain('has issues');
		expect(await client().requests()).toHaveLength(0);
	});

	it('rejects an ID of the wrong prefix coming from an expression before any request, naming the parameter', async () => {
		const result = await runStora({
			credentials: credentials(),
			items: [{ id: 'con_123' }],
			parameters: {
				resource: 'site',
				operation: 'get',
				siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
		});
		expect(result.error?.message).toBe('Site: "con_123" is not a site ID');
		expect(result.error?.description).toContain('starts with "site_"');
		// A check of the node's own, not an answer of the API's: n8n's RoutingNode gives whatever stops a run as an
		// error without an HTTP code, so the description says where it came from.
		expect((result.error as { httpCode?: string | null }).httpCode ?? 'none').toBe('none');
		expect(result.error?.description).toContain(
			'Checked in n8n before sending: nothing was sent to Stora.',
		);
		expect(await client().requests()).toHaveLength(0);
	});

	it('still refuses a wrong ID in a plain ID field, without pointing to a list it does not have', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'task',
				operation: 'create',
				title: 'Call back',
				additionalFields: { assigneeId: 'con_abc' },
			},
		});
		expect(result.error?.message).toBe('Assignee: "con_abc" is not an assignee ID');
		expect(description(result.error)).toContain('Paste the ID as Stora shows it.');
		expect(description(result.error)).not.toContain('from the list');
		expect(await fixture.client.requests()).toEqual([]);
	});
});
