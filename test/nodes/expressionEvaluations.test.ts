/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * How many times n8n evaluates an expression per item, counted in n8n's own engine: every parameter expression n8n
 * resolves goes through `Expression.resolveSimpleParameterValue` (n8n-workflow), which is watched here, not replaced.
 * Each evaluation costs CPU per item (docs/ARCHITECTURE.md, "A request, from a parameter to the wire and back"):
 * that section states the count this test measures, and the test fails when the two differ.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Expression } from 'n8n-workflow';

import { insertContacts, updateContacts } from '../helpers/contactUpdates';
import { useSandboxForNode } from '../helpers/sandboxFixture';

/** The sentence of docs/ARCHITECTURE.md that states the count. */
const STATED = /a record ID's expression is\s+evaluated\s+\*\*(\d+)\*\*\s+times?\s+per\s+item/;

describe('expression evaluations per item', () => {
	const fixture = useSandboxForNode();

	it('Contact → Update with the Contact ID as an expression: as many evaluations per item as docs/ARCHITECTURE.md states', async () => {
		const count = 20;
		const contacts = await insertContacts(fixture.client, count, 'eval');
		const evaluated: string[] = [];
		const resolve = Expression.prototype.resolveSimpleParameterValue;
		const spy = jest.spyOn(Expression.prototype, 'resolveSimpleParameterValue').mockImplementation(function (this: Expression, value, ...rest) {
			if (typeof value === 'string' && value.startsWith('=')) evaluated.push(value);
			return resolve.call(this, value, ...rest);
		});
		try {
			// updateContacts sets the Contact ID to `={{ $json.id }}` and Update Fields → Use Case to a fixed value.
			const { result, state } = await updateContacts(fixture.client, fixture.credentials(), contacts);
			expect(result.error).toBeUndefined();
			for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		} finally {
			spy.mockRestore();
		}
		const idEvaluations = evaluated.filter((value) => value.includes('$json.id')).length;
		// Every evaluation is the Contact ID's: no URL, base URL or credential header is an expression.
		expect(evaluated).toHaveLength(idEvaluations);
		expect(idEvaluations % count).toBe(0);
		const perItem = idEvaluations / count;
		const architecture = readFileSync(join(__dirname, '..', '..', 'docs', 'ARCHITECTURE.md'), 'utf8');
		expect(Number(STATED.exec(architecture)?.[1])).toBe(perItem);
	});
});
