import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection, simplifyToggle } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('subscription'),
	optionsCollection([expandOption(['contact', 'line_items.item', 'order', 'site', 'tenancy'])]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['get'] } },
	properties,
);
