/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * What the node does per item before a request, counted in n8n's own engine for 500 Contact → Update items: the
 * properties n8n's RoutingNode walks (none: the node's own runs build requests themselves, transport/route.ts), the
 * display conditions evaluated (n8n's `displayParameter`), the parameters read and the expressions evaluated. The
 * README's sentence on per-item work states these figures; the test fails when the sentence and the count differ,
 * and when the work grows past the bounds below.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { Expression, NodeHelpers } from 'n8n-workflow';

import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { insertContacts, updateContacts } from '../helpers/contactUpdates';
import { printFigure } from '../helpers/figures';
import { locator, runStora } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const ITEMS = 500;

/** docs/quality.md's sentence: "... evaluates **1** expression and reads **N** parameter(s) per item ...". */
const STATED = /evaluates\s+\*\*(\d+)\*\*\s+expressions?\s+and\s+reads\s+\*\*(\d+)\*\*\s+parameters?\s+per\s+item/;
/**
 * Items the node may have read before its first request leaves for Stora (RoutingNode builds all 500 first). Counted
 * where the request is handed to n8n's HTTP client, not where the sandbox receives it: between the two lie the
 * kernel's and the scheduler's delays, which another process's load stretches.
 */
const BUILT_BEFORE_FIRST_REQUEST = 50;

describe('per-item work of the node’s own runs', () => {
	const fixture = useSandboxForNode();

	it(`${ITEMS} Contact → Update items: no RoutingNode walk, fixed values read once per run, one expression per item, the first request sent after a few items`, async () => {
		const contacts = await insertContacts(fixture.client, ITEMS, 'work');
		const counts = { walked: 0, displayed: 0, expressions: 0, read: 0 };
		const spies = [
			jest.spyOn(RoutingNode.prototype as never as { getRequestOptionsFromParameters: () => unknown }, 'getRequestOptionsFromParameters'),
			jest.spyOn(NodeHelpers, 'displayParameter'),
			jest.spyOn(Expression.prototype, 'resolveSimpleParameterValue'),
		];
		const [walk, display, resolve] = spies;
		// Every parameter the node's own run reads goes through n8n-core's ExecuteContext.getNodeParameter, which calls this.
		const readSpy = jest.spyOn(ExecuteContext.prototype as never as { _getNodeParameter: () => unknown }, '_getNodeParameter');
		// Every request leaves through the rate-limit budget's attempt: the reads so far when the first one does.
		let readsAtFirstRequest: number | undefined;
		const send = rateLimits.send.bind(rateLimits);
		const arrivalSpy = jest.spyOn(rateLimits, 'send').mockImplementation(async (key, attempt, ...rest) =>
			await send(key, async () => {
				readsAtFirstRequest ??= readSpy.mock.calls.length;
				return await attempt();
			}, ...rest),
		);
		try {
			const { result, state } = await updateContacts(fixture.client, fixture.credentials(), contacts);
			expect(result.error).toBeUndefined();
			for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
			counts.walked = walk.mock.calls.length;
			counts.displayed = display.mock.calls.length;
			counts.expressions = resolve.mock.calls.filter(([value]) => typeof value === 'string' && value.startsWith('=')).length;
			counts.read = readSpy.mock.calls.length;
		} finally {
			for (const spy of [...spies, readSpy, arrivalSpy]) spy.mockRestore();
		}
		const perItem = (count: number) => Math.round((count / ITEMS) * 10) / 10;
		const figures = {
			walked: perItem(counts.walked),
			displayed: perItem(counts.displayed),
			expressions: perItem(counts.expressions),
			read: perItem(counts.read),
			itemsReadBeforeTheFirstRequest: Math.round(((readsAtFirstRequest ?? counts.read) * ITEMS) / counts.read),
		};
		printFigure(`per item over ${ITEMS} items: ${JSON.stringify(figures)}`);
		// RoutingNode walks every top-level property twice per item and evaluates their display conditions.
		expect(counts.walked).toBe(0);
		expect(figures.displayed).toBeLessThanOrEqual(3);
		expect(figures.expressions).toBe(1);
		expect(figures.read).toBeLessThanOrEqual(1.1);
		expect(figures.itemsReadBeforeTheFirstRequest).toBeLessThanOrEqual(BUILT_BEFORE_FIRST_REQUEST);
		const quality = readFileSync(join(__dirname, '..', '..', 'docs', 'quality.md'), 'utf8');
		const stated = STATED.exec(quality);
		expect([Number(stated?.[1]), Number(stated?.[2])]).toEqual([figures.expressions, Math.round(figures.read)]);
	});
	it(`${ITEMS} Contact → Create items, Email and Additional Fields → Full Name from the item: each expression evaluated once per item`, async () => {
		const resolve = jest.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
		const items = Array.from({ length: ITEMS }, (_, index) => ({ email: `per.item.${index}@example.com`, full_name: `Per Item ${index}` }));
		let evaluated: string[];
		try {
			const result = await runStora({
				credentials: fixture.credentials(),
				items,
				parameters: { resource: 'contact', operation: 'create', email: '={{ $json.email }}', additionalFields: { fullName: '={{ $json.full_name }}' } },
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => [item.json.email, item.json.full_name])).toEqual(items.map((item) => [item.email, item.full_name]));
			evaluated = resolve.mock.calls.map(([value]) => String(value)).filter((value) => value.startsWith('='));
		} finally {
			resolve.mockRestore();
		}
		const perItem = (expression: string) => evaluated.filter((value) => value === expression).length / ITEMS;
		printFigure(`Contact → Create, expressions per item over ${ITEMS} items: email ${perItem('={{ $json.email }}')}, full name ${perItem('={{ $json.full_name }}')}`);
		// The request reads Additional Fields → Full Name and the choice check reads Additional Fields: one evaluation.
		expect(perItem('={{ $json.email }}')).toBe(1);
		expect(perItem('={{ $json.full_name }}')).toBe(1);
	});
	describe('an item whose request cannot be built (its Email’s expression fails) while earlier items are already sent', () => {
		const run = async (continueOnFail: boolean) => {
			const contacts = await insertContacts(fixture.client, 3, continueOnFail ? 'cof' : 'stop');
			const result = await runStora({
				credentials: fixture.credentials(),
				continueOnFail,
				// The second item has no e-mail address, so its expression reads a node the workflow does not have: n8n fails it.
				items: contacts.map((contact, index) => (index === 1 ? { id: contact.id } : { id: contact.id, email: `  new.${index}@example.com ` })),
				parameters: {
					resource: 'contact',
					operation: 'update',
					contactId: locator('={{ $json.id }}'),
					updateFields: { email: "={{ $json.email?.trim() ?? $('No Such Node').item.json.email }}" },
				},
			});
			const state = new Map((await fixture.client.state('contacts')).map((contact) => [contact.id, contact]));
			const patched = (await fixture.client.requests()).filter((request) => request.method === 'PATCH').map((request) => request.path);
			return { contacts, result, state, patched };
		};

		it('stops the run there, after the first item’s update has ended; the third is never sent', async () => {
			const { contacts, result, state, patched } = await run(false);
			expect(result.error?.message).toMatch(/Referenced node doesn't exist/);
			expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex ?? 1).toBe(1);
			expect(patched).toEqual([expect.stringContaining(contacts[0].id)]);
			expect(state.get(contacts[0].id)?.email).toBe('new.0@example.com');
			expect(state.get(contacts[2].id)?.email).toBe(contacts[2].email);
		});

		it('with Continue On Fail: the other items are updated, in order, and the second carries its error', async () => {
			const { contacts, result, state } = await run(true);
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(3);
			expect(result.items.map((item) => item.json.id)).toEqual([contacts[0].id, undefined, contacts[2].id]);
			expect(String((result.items[1] as { error?: Error }).error?.message ?? result.items[1].json.error)).toMatch(/Referenced node doesn't exist/);
			expect(state.get(contacts[2].id)?.email).toBe('new.2@example.com');
		});
	});
});
