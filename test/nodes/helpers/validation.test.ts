/**
 * helpers/validation.ts, the checks before any request and how they fail. Empty values, as a newcomer makes them:
 * a required field whose expression reads a field the item does not have, and a blank required field. Both fail
 * before any request, naming the field, the item and what gave the value, and say that nothing reached Stora (n8n
 * shows a declarative node's own checks as an API error); an optional field left empty: body.test.ts. A failed check under Continue On Fail is
 * the item's error, linked to its input item; a number out of range is refused.
 */
import { NOTHING_SENT } from '../../../nodes/Stora/helpers/validation';
import { locator, runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('empty input', () => {
	const fixture = useSandboxForNode();
	const description = (error: unknown) =>
		String((error as { description?: string } | undefined)?.description);

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
		expect(
			(await fixture.client.requests()).filter((request) => request.method === 'POST').length,
		).toBeLessThanOrEqual(1);
	});

	it('fails an empty required record before any request, naming it (a locator whose expression gives nothing)', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'contact',
				operation: 'get',
				contactId: locator('={{ $json.contact }}'),
			},
			items: [{ contact_id: 'con_x' }],
		});
		expect(result.error?.message).toBe('Contact is empty for item 0: its expression gave no value');
		expect(await fixture.client.requests()).toEqual([]);
	});
});

describe('checks before any request', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;
	const credentials = () => fixture.credentials();

	describe('local validation', () => {
		it("with Continue On Fail, gives the failed check as the item's error, linked to its input item", async () => {
			const [site] = await client().state('sites');
			const result = await runStora({
				credentials: credentials(),
				continueOnFail: true,
				items: [{ id: site.id }, { id: 'con_123' }, { id: site.id }],
				parameters: {
					resource: 'site',
					operation: 'get',
					siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id ?? item.json.error)).toEqual([
				site.id,
				'Site: "con_123" is not a site ID',
				site.id,
			]);
			expect(result.items[1].json.message).toContain('starts with "site_"');
			expect(result.items.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(await client().requests()).toHaveLength(2);
		});

		it('never asks for more than 100 records per page', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 500 },
			});
			expect(result.error?.message).toMatch(/Limit/);
			expect(await client().requests()).toHaveLength(0);
		});
	});
});
