import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('note'),
	optionsCollection([expandOption(['creator', 'resource'])]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['note'], operation: ['get'] } },
	properties,
);
