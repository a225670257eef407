import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';
import { ORDER_EXPAND } from './fields';

// The order first, as in Get and Finalize, so the three share one Order property (n8n evaluates each namesake per item).
const properties: INodeProperties[] = [
	locator('order'),
	{
		displayName:
			'Stora has announced a breaking change to the protection-level parts of order validation: protection levels are becoming site-scoped. Validation results for protection line items may change with the next API version.',
		name: 'protectionLevelNotice',
		type: 'notice',
		default: '',
	},
	optionsCollection([expandOption(ORDER_EXPAND)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['order'], operation: ['validate'] } },
	properties,
);
