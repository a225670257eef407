/**
 * The item's view of one of the node's own runs (transport/itemContext.ts), in n8n-core's engine: what is the same for
 * every item is read once per run. The transport hook is replaced by one that reads through the view, so no request
 * leaves.
 */
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, IExecutePaginationFunctions, INodeTypeDescription } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { RUN_INDEX_EXPRESSION } from '../../nodes/Stora/transport/itemContext';
import { routedOperations } from '../../nodes/Stora/transport/routedOperations';
import { asLoadedByN8n, runStora, tokenCredentials } from '../helpers/n8n';

const stora = asLoadedByN8n(new Stora());

/** The Stora node with `hook` where its transport hook is, run by its own builder over five items. */
async function runWithHook(hook: (this: IExecutePaginationFunctions) => Promise<Array<{ json: IDataObject }>>, parameters: IDataObject) {
	const description: INodeTypeDescription = { ...stora.description, requestOperations: { pagination: hook } };
	return await runStora({
		nodeClass: { description, methods: stora.methods, customOperations: routedOperations(description) },
		credentials: tokenCredentials('http://127.0.0.1:9', 'sk_test_routed'),
		items: [{}, {}, {}, {}, {}],
		parameters: parameters as never,
	});
}

describe('an item’s view of the node’s own run (transport/itemContext.ts)', () => {
	it('reads a parameter that is not set once per run and fallback, equal object fallbacks included, each read its own copy', async () => {
		const answers: unknown[] = [];
		const read = async function (this: IExecutePaginationFunctions) {
			// A new `{}` on every read, as the preSends write it.
			const empty = this.getNodeParameter('notSet', {}) as IDataObject;
			const filled = this.getNodeParameter('notSet', { tier: 'gold' }) as IDataObject;
			answers.push(empty, filled);
			empty.changed = true;
			return [{ json: {} }];
		};
		const reads = jest.spyOn(ExecuteContext.prototype as never as { _getNodeParameter: (name: string) => unknown }, '_getNodeParameter');
		try {
			const result = await runWithHook(read, { resource: 'site', operation: 'getAll' });
			expect(result.error).toBeUndefined();
			expect(reads.mock.calls.filter(([name]) => name === 'notSet')).toHaveLength(2);
		} finally {
			reads.mockRestore();
		}
		expect(answers).toEqual(Array.from({ length: 5 }, () => [{ changed: true }, { tier: 'gold' }]).flat());
	});

	it('answers the run index (a POST’s Idempotency-Key reads it) from the run, evaluating it once per run', async () => {
		const answers: unknown[] = [];
		const read = async function (this: IExecutePaginationFunctions) {
			answers.push(this.evaluateExpression(RUN_INDEX_EXPRESSION, this.getItemIndex()));
			return [{ json: {} }];
		};
		const evaluations = jest.spyOn(ExecuteContext.prototype, 'evaluateExpression');
		try {
			const result = await runWithHook(read, { resource: 'contact', operation: 'create', email: 'run.index@example.com' });
			expect(result.error).toBeUndefined();
			expect(evaluations.mock.calls.filter(([value]) => value === RUN_INDEX_EXPRESSION)).toHaveLength(1);
		} finally {
			evaluations.mockRestore();
		}
		expect(answers).toEqual([0, 0, 0, 0, 0]);
	});
});
