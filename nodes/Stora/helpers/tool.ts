/**
 * The Stora node as an AI tool: n8n turns a node with `usableAsTool` into `<type>Tool` (n8n-nodes-stora.storaTool),
 * which an AI Agent or the MCP Server Trigger calls with the arguments a model chose (`$fromAI()` in its parameters).
 * What the model reads back is the node's output as JSON text, so in tool use the node answers for a context window:
 * records simplified unless the tool's Output says Full Records, lists wrapped with their count and bounded, errors
 * short and naming the argument the model gave.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './constants';
import { RECORDS } from './records';

/** The most records one tool answer lists: one page of the API, whatever Limit or Return All ask for. */
export const TOOL_MAX_RECORDS = MAX_PAGE_SIZE;

/**
 * The most characters of records one tool answer holds, so that an answer stays a small part of a model's context
 * window; a page of full records can pass it. Records past it are left out and the answer says so.
 */
export const TOOL_MAX_CHARACTERS = 20_000;

/**
 * A check's message as a model reads it, naming its argument: `Contact: "12345" is not a contact ID` (whose label is
 * Contact) becomes `The argument contactId, "12345", is not a contact ID`.
 */
export function namingTheArgument(message: string, label: string, argument: string): string {
	if (!message.startsWith(label)) return `The argument ${argument}: ${message}`;
	const rest = message.slice(label.length);
	const quoted = /^: (.+?) (is .*)$/s.exec(rest);
	if (quoted) return `The argument ${argument}, ${quoted[1]}, ${quoted[2]}`;
	return `The argument ${argument}${rest}`;
}

/** Whether the node runs as n8n's tool variant of itself (its type ends in `Tool`, as n8n names it). */
export function runsAsTool(context: { getNode(): INode }): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * The `$fromAI()` key a parameter's raw value reads, when it reads one: the argument name the model knows the value
 * by. A resource locator keeps its value under `value`.
 */
function fromAiKey(raw: unknown): string | undefined {
	const value = raw && typeof raw === 'object' && '__rl' in raw ? (raw as IDataObject).value : raw;
	if (typeof value !== 'string') return undefined;
	return /\$fromAI\(\s*(['"`])([A-Za-z0-9_-]{1,64})\1/.exec(value)?.[2];
}

/** The model's argument behind a parameter (`additionalFields.assigneeId` reads inside the collection), if any. */
export function argumentOf(node: INode, path: string): string | undefined {
	let value: unknown = node.parameters;
	for (const key of path.split('.'))
		value = value && typeof value === 'object' ? (value as IDataObject)[key] : undefined;
	return fromAiKey(value);
}

/**
 * The record kind a model's argument is named for (`contactId` → contact), when that name is a kind's: a field that
 * takes records of several kinds, fed by such an argument, takes only that kind, as the model was told.
 */
export function kindOfArgument(argument: string | undefined): keyof typeof RECORDS | undefined {
	const kind = /^([a-z][A-Za-z]*)Id$/.exec(argument ?? '')?.[1];
	return kind && kind in RECORDS ? (kind as keyof typeof RECORDS) : undefined;
}

const thousands = (n: number) => n.toLocaleString('en-US');

/**
 * A list as one tool answer: `{ <list>: [...], count, total, more? }`. At most TOOL_MAX_RECORDS records and
 * TOOL_MAX_CHARACTERS characters of them; `more` says how many matched and how to reach the others, so a model
 * neither floods its context nor takes a first page for the whole list.
 */
export function toolListAnswer(
	listName: string,
	records: IDataObject[],
	{ total, limit, returnAll }: { total?: number; limit?: number; returnAll: boolean },
): INodeExecutionData[] {
	const kept: IDataObject[] = [];
	let characters = 0;
	for (const record of records.slice(0, TOOL_MAX_RECORDS)) {
		const size = JSON.stringify(record).length + 1;
		if (kept.length > 0 && characters + size > TOOL_MAX_CHARACTERS) break;
		kept.push(record);
		characters += size;
	}
	const matched = Math.max(total ?? 0, records.length);
	const answer: IDataObject = { [listName]: kept, count: kept.length };
	if (total !== undefined) answer.total = total;
	if (matched > kept.length) {
		const noun = listName.replace(/_/g, ' ');
		const why =
			kept.length < Math.min(records.length, TOOL_MAX_RECORDS)
				? `the answer is cut at ${thousands(TOOL_MAX_CHARACTERS)} characters`
				: returnAll || (limit ?? 0) >= TOOL_MAX_RECORDS
					? `a tool answer lists at most ${TOOL_MAX_RECORDS}`
					: `the limit was ${limit}`;
		answer.more =
			`${thousands(matched)} ${noun} match, ${kept.length} shown (${why}). ` +
			`To see others, narrow the search or filters${why.startsWith('the limit') ? ` or ask for a higher limit (at most ${TOOL_MAX_RECORDS})` : ''}.`;
	}
	return [{ json: answer }];
}
