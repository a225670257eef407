import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { idempotencyKeyProperty, type ResourceDefinition } from '../shared/descriptions';
import { accessTokenResource } from './accessToken';
import { contactResource } from './contact';
import { contractResource } from './contract';
import { contractTemplateResource } from './contractTemplate';
import { couponResource } from './coupon';
import { creditNoteResource } from './creditNote';
import { dealResource } from './deal';
import { dealStageResource } from './dealStage';
import { identityVerificationResource } from './identityVerification';
import { imageResource } from './image';
import { invoiceResource } from './invoice';
import { noteResource } from './note';
import { opportunityResource } from './opportunity';
import { orderResource } from './order';
import { orderLineItemResource } from './orderLineItem';
import { priceAdjustmentResource } from './priceAdjustment';
import { productResource } from './product';
import { productCategoryResource } from './productCategory';
import { protectionLevelResource } from './protectionLevel';
import { siteResource } from './site';
import { subscriptionResource } from './subscription';
import { taskResource } from './task';
import { tenancyResource } from './tenancy';
import { timelineEventResource } from './timelineEvent';
import { timelineSourceResource } from './timelineSource';
import { timelineTemplateResource } from './timelineTemplate';
import { unitResource } from './unit';
import { unitAllocationResource } from './unitAllocation';
import { unitTypeResource } from './unitType';
import { webhookEndpointResource } from './webhookEndpoint';

/** Every resource of the node. Adding one is a description file and a line here. */
const resources: ResourceDefinition[] = [
	accessTokenResource,
	contactResource,
	contractResource,
	contractTemplateResource,
	couponResource,
	creditNoteResource,
	dealResource,
	dealStageResource,
	identityVerificationResource,
	imageResource,
	invoiceResource,
	noteResource,
	opportunityResource,
	orderResource,
	orderLineItemResource,
	priceAdjustmentResource,
	productResource,
	productCategoryResource,
	protectionLevelResource,
	siteResource,
	subscriptionResource,
	taskResource,
	tenancyResource,
	timelineEventResource,
	timelineSourceResource,
	timelineTemplateResource,
	unitResource,
	unitAllocationResource,
	unitTypeResource,
	webhookEndpointResource,
];

export const resourceOptions: INodePropertyOptions[] = resources
	.filter((resource) => resource.properties.length > 0)
	.map((resource) => resource.option)
	.sort((a, b) => a.name.localeCompare(b.name));

/** Operation values that POST (creates and the API's actions): only these can carry an Idempotency-Key. */
const postOperations = [
	...new Set(
		resources.flatMap((resource) =>
			resource.properties
				.filter((property) => property.name === 'operation')
				.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
				.filter((option) => option.routing?.request?.method === 'POST')
				.map((option) => String(option.value)),
		),
	),
].sort();

export const resourceProperties: INodeProperties[] = [
	...resources.flatMap((resource) => resource.properties),
	idempotencyKeyProperty(postOperations),
];

export function simplifiedFieldsOf(resource: string): string[] | undefined {
	return resources.find((entry) => entry.option.value === resource)?.simplifiedFields;
}
