import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['accessToken'], operation: ['getInfo'] } },
	properties,
);
