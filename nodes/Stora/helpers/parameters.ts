/**
 * The node parameters the transport and output shaping read at run time, declared once: the descriptions name their
 * properties with these, and the run reads them by these, so a rename on one side cannot leave the other reading a
 * parameter that is gone (it would read its fallback without a word). After 0.1.0 a rename is a new node version.
 */
export const PARAMETER = {
	resource: 'resource',
	operation: 'operation',
	returnAll: 'returnAll',
	limit: 'limit',
	simplify: 'simplify',
	toolOutput: 'toolOutput',
	binaryPropertyName: 'binaryPropertyName',
} as const;
