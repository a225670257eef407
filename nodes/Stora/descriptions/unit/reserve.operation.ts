import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('unit'),
	locator('tenancy', {
		name: 'unitTenancyId',
		send: { type: 'body', property: 'tenancy_id' },
		description: "The active tenancy (at the unit's site) the unit is for",
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unit'], operation: ['reserve'] } },
	properties,
);
