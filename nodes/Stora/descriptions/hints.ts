/**
 * Hints n8n's editor shows with the node, where it would otherwise mislead: after a Get Many as a CSV file, the
 * output pane shows one item (the file), not the records; a user looking for rows needs to know where they went.
 */
import type { NodeHint } from 'n8n-workflow';

export const hints: NodeHint[] = [
	{
		message:
			'The list is one item holding a CSV file (in the binary field named in "Put Output File in Field"), not an item per record. To work with its rows, add an Extract from File node after this one, or set Output Format to JSON Items.',
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition:
			'={{ $parameter["operation"] === "getAll" && $parameter["outputFormat"] === "csv" }}',
	},
];
