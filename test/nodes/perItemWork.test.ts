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

import { insertContacts, updateContacts } from '../helpers/contactUpdates';
import { printFigure } from '../helpers/figures';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const ITEMS = 500;

/** The README's sentence: "... evaluates **1** expression and reads **N** parameters per item ...". */
const STATED = /evaluates\s+\*\*(\d+)\*\*\s+expressions?\s+and\s+reads\s+\*\*(\d+)\*\*\s+parameters\s+per\s+item/;

describe('per-item work of the node’s own runs', () => {
	const fixture = useSandboxForNode();

	it(`${ITEMS} Contact → Update items: no RoutingNode walk, display conditions once per run, one expression and a few parameters per item`, async () => {
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
		try {
			const { result, state } = await updateContacts(fixture.client, fixture.credentials(), contacts);
			expect(result.error).toBeUndefined();
			for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
			counts.walked = walk.mock.calls.length;
			counts.displayed = display.mock.calls.length;
			counts.expressions = resolve.mock.calls.filter(([value]) => typeof value === 'string' && value.startsWith('=')).length;
			counts.read = readSpy.mock.calls.length;
		} finally {
			for (const spy of [...spies, readSpy]) spy.mockRestore();
		}
		const perItem = (count: number) => Math.round((count / ITEMS) * 10) / 10;
		const figures = {
			walked: perItem(counts.walked),
			displayed: perItem(counts.displayed),
			expressions: perItem(counts.expressions),
			read: perItem(counts.read),
		};
		printFigure(`per item over ${ITEMS} items: ${JSON.stringify(figures)}`);
		// RoutingNode walked 794 properties per item (392 top-level ones, twice) and evaluated 840 display conditions.
		expect(counts.walked).toBe(0);
		expect(figures.displayed).toBeLessThanOrEqual(60);
		expect(figures.expressions).toBe(1);
		expect(figures.read).toBeLessThanOrEqual(40);
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		const stated = STATED.exec(readme);
		expect([Number(stated?.[1]), Number(stated?.[2])]).toEqual([figures.expressions, Math.round(figures.read)]);
	});
});
