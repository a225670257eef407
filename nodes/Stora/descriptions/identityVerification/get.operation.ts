import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { expandOption, optionsCollection } from '../common/getMany';
import { locator } from '../common/records';

const properties: INodeProperties[] = [
	locator('identityVerification'),
	optionsCollection([expandOption(['contact'])]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['identityVerification'], operation: ['get'] } },
	properties,
);
