import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { siteDescription } from './site';

interface Resource {
	option: INodePropertyOptions;
	properties: INodeProperties[];
}

/** Every resource of the node. Adding one is a description file and a line here. */
const resources: Resource[] = [{ option: { name: 'Site', value: 'site' }, properties: siteDescription }];

export const resourceOptions: INodePropertyOptions[] = resources
	.map((resource) => resource.option)
	.sort((a, b) => a.name.localeCompare(b.name));

export const resourceProperties: INodeProperties[] = resources.flatMap((resource) => resource.properties);
