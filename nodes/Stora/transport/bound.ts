import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from '../helpers/constants';

/**
 * The most records one node run hands to n8n: the one bound of every path that pages (Return All, its parallel
 * windows, the time walk and the Stora Poll Trigger). n8n's declarative engine passes a node's items on with one
 * `push(...items)`, and a spread that large runs out of stack (the deeper the stack at that moment, the fewer items
 * it takes); test/e2e/edges.mjs checks that 100,000 pass in real n8n. The rule:
 * Return All fails before it walks when the list's `count` is above the bound (and, when a list reports no count,
 * as soon as it has seen more); a poll emits the oldest MAX_RECORDS new records and the next poll goes on from there.
 */
export const MAX_RECORDS = 100_000;

/**
 * Requests one walk may make: twice what MAX_RECORDS needs, plus restarts. Only an API that keeps answering with
 * records already seen reaches it; the error says so instead of looping.
 */
export const MAX_REQUESTS = (2 * MAX_RECORDS) / MAX_PAGE_SIZE + 20;

const thousands = (n: number) => n.toLocaleString('en-US');

/** Return All over a list larger than n8n can take from one node: what to do instead. */
export function tooManyRecords(node: INode, count: number | undefined, itemIndex?: number): NodeOperationError {
	const size = count === undefined ? `more than ${thousands(MAX_RECORDS)}` : thousands(count);
	return new NodeOperationError(node, `Return All would return ${size} records; one run can return at most ${thousands(MAX_RECORDS)}`, {
		description:
			`n8n cannot take more than about ${thousands(MAX_RECORDS)} items from one node, so nothing was returned` +
			(count === undefined ? ' (Stora did not report the list\'s count, so this showed only while paging)' : ' (nothing beyond the first page was fetched)') +
			'. Narrow the list with filters, for example Created After and Created Before windows of a few months each ' +
			'(one node run per window, e.g. from a loop), or choose Output Format CSV where offered: one file of every record, with no item bound.',
		itemIndex,
	});
}

/** A walk that used up MAX_REQUESTS: the API kept answering pages already seen. */
export function walkDidNotEnd(node: INode, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, `Stora's list did not end after ${thousands(MAX_REQUESTS)} requests`, {
		description:
			'The pages kept repeating records already returned, so the node stopped instead of looping. Narrow the list with filters, and report this to Stora with the request IDs from the log.',
		itemIndex,
	});
}
