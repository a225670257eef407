/**
 * A filter never widens a list silently: a Get Many filter whose expression comes out empty for an item fails that
 * item before any request, naming the filter, instead of being dropped (which would return every record); a filter
 * left empty in the editor is not sent. Through n8n's engine, with the node's runs and with n8n's RoutingNode building
 * the request, and in the Polling Trigger, which reads the same filters.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { runByRoutingNode, runStora, type RunOptions } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const EMPTY_EMAIL = "Filter 'Email' came out empty from its expression";

describe('Get Many filters from expressions that come out empty', () => {
	const fixture = useSandboxForNode();
	let known: Record<string, unknown>;

	beforeEach(async () => {
		[known] = await fixture.client.state('contacts');
		await fixture.client.clearRequests();
	});

	const contacts = async () =>
		(await fixture.client.requests()).filter((request) => request.path === '/2025-09/contacts');
	const byEmail: INodeParameters = {
		resource: 'contact',
		operation: 'getAll',
		limit: 5,
		filters: { email: '={{ $json.email }}' },
	};
	const engines: Array<[string, Pick<RunOptions, 'nodeClass'>]> = [
		["the node's runs", {}],
		["n8n's RoutingNode", { nodeClass: runByRoutingNode(new Stora().description) }],
	];

	describe.each(engines)('built by %s', (_name, engine) => {
		const run = async (items: IDataObject[], continueOnFail = false, parameters = byEmail) =>
			await runStora({
				...engine,
				credentials: fixture.credentials(),
				parameters,
				items,
				continueOnFail,
			});

		it.each([
			['missing', {}],
			['empty text', { email: '' }],
			['null', { email: null }],
			['an empty list', { email: [] }],
		])(
			'fails the item naming the filter when the value is %s, before any request',
			async (_case, json) => {
				const result = await run([{ name: 'Lead without an email', ...json }]);
				expect(result.items).toEqual([]);
				expect(result.error?.message).toBe(EMPTY_EMAIL);
				expect(String((result.error as { description?: string }).description)).toMatch(
					/If node .* or remove the filter/,
				);
				expect(await contacts()).toEqual([]);
			},
		);

		it('still filters where the expression gives a value, and under continue-on-fail fails only the empty item', async () => {
			const result = await run(
				[{ email: known.email as string }, { name: 'Lead without an email' }],
				true,
			);
			expect(result.error).toBeUndefined();
			const [found, failed] = [0, 1].map((item) =>
				result.items.filter((output) => (output.pairedItem as { item: number }).item === item),
			);
			expect(found.length).toBeGreaterThan(0);
			expect(found.every((item) => item.json.email === known.email)).toBe(true);
			expect(failed).toHaveLength(1);
			expect(failed[0].json.error).toBe(EMPTY_EMAIL);
			const requests = await contacts();
			expect(requests).toHaveLength(1);
			expect(requests[0].query.email).toBe(known.email);
		});

		it('does not send a filter left empty in the editor', async () => {
			const result = await run([{}], false, {
				resource: 'contact',
				operation: 'getAll',
				limit: 5,
				filters: { email: '', search: '' },
			});
			expect(result.error).toBeUndefined();
			const [request] = await contacts();
			expect(request.query).not.toHaveProperty('email');
			expect(request.query).not.toHaveProperty('search');
		});

		it('fails the item for a multi-value, ID-list or metadata filter whose expression is empty', async () => {
			for (const [filters, label] of [
				[{ status: '={{ $json.statuses }}' }, 'Status'],
				[{ siteIds: '={{ $json.sites }}' }, 'Site Names or IDs'],
				[{ metadata: { entry: [{ key: 'tier', value: '={{ $json.tier }}' }] } }, 'Metadata Value'],
				[{ createdAfter: '={{ $json.since }}' }, 'Created After'],
			] as Array<[IDataObject, string]>) {
				const resource = 'siteIds' in filters ? 'unit' : 'contact';
				const result = await run([{ statuses: [], sites: '' }], false, {
					resource,
					operation: 'getAll',
					limit: 5,
					filters,
				} as INodeParameters);
				expect(result.error?.message).toBe(`Filter '${label}' came out empty from its expression`);
			}
			expect(await fixture.client.requests()).toEqual([]);
		});
	});

	it('fails the poll of the Polling Trigger naming the filter, before any request', async () => {
		const trigger = new PollHarness(fixture.credentials(), {
			pollResource: 'contact',
			event: 'created',
			filters: { email: '={{ "" }}' },
		});
		await expect(trigger.poll()).rejects.toThrow(EMPTY_EMAIL);
		expect(await fixture.client.requests()).toEqual([]);
	});
});
