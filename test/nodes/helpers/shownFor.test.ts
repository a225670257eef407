import type { INodeProperties } from 'n8n-workflow';

import { shownFor } from '../../../nodes/Stora/helpers/shownFor';

describe('shownFor', () => {
	const field = (show: Record<string, string[]>): INodeProperties => ({
		displayName: 'Status',
		name: 'status',
		type: 'string',
		default: '',
		displayOptions: { show },
	});

	it('reads the resource and operation conditions, top-level and root ones alike', () => {
		expect(
			shownFor(field({ resource: ['contact'], operation: ['getAll'] }), 'contact', 'getAll'),
		).toBe(true);
		expect(shownFor(field({ resource: ['contact'] }), 'deal', 'getAll')).toBe(false);
		expect(shownFor(field({ '/resource': ['contact', 'deal'] }), 'deal', 'getAll')).toBe(true);
		expect(shownFor(field({ '/resource': ['contact'] }), 'deal', 'getAll')).toBe(false);
		expect(shownFor(field({ '/operation': ['create'] }), 'deal', 'finalize')).toBe(false);
	});

	it('shows a property without conditions everywhere, other conditions aside', () => {
		expect(shownFor({ ...field({}), displayOptions: undefined }, 'site', 'get')).toBe(true);
		expect(shownFor(field({ returnAll: ['false'] }), 'site', 'getAll')).toBe(true);
	});
});
