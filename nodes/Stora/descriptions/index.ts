import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { optionsCollection } from './common/getMany';
import { idempotencyKeyOption } from './common/idempotencyKey';
import { mergeAcrossOperations, mergeAcrossResources } from './mergeProperties';
import * as accessToken from './accessToken/AccessToken.resource';
import * as contact from './contact/Contact.resource';
import * as contract from './contract/Contract.resource';
import * as contractTemplate from './contractTemplate/ContractTemplate.resource';
import * as coupon from './coupon/Coupon.resource';
import * as creditNote from './creditNote/CreditNote.resource';
import * as deal from './deal/Deal.resource';
import * as dealStage from './dealStage/DealStage.resource';
import * as identityVerification from './identityVerification/IdentityVerification.resource';
import * as image from './image/Image.resource';
import * as invoice from './invoice/Invoice.resource';
import * as note from './note/Note.resource';
import * as opportunity from './opportunity/Opportunity.resource';
import * as order from './order/Order.resource';
import * as orderLineItem from './orderLineItem/OrderLineItem.resource';
import * as priceAdjustment from './priceAdjustment/PriceAdjustment.resource';
import * as product from './product/Product.resource';
import * as productCategory from './productCategory/ProductCategory.resource';
import * as protectionLevel from './protectionLevel/ProtectionLevel.resource';
import * as site from './site/Site.resource';
import * as subscription from './subscription/Subscription.resource';
import * as task from './task/Task.resource';
import * as tenancy from './tenancy/Tenancy.resource';
import * as timelineEvent from './timelineEvent/TimelineEvent.resource';
import * as timelineSource from './timelineSource/TimelineSource.resource';
import * as timelineTemplate from './timelineTemplate/TimelineTemplate.resource';
import * as unit from './unit/Unit.resource';
import * as unitAllocation from './unitAllocation/UnitAllocation.resource';
import * as unitType from './unitType/UnitType.resource';
import * as webhookEndpoint from './webhookEndpoint/WebhookEndpoint.resource';

/** Every resource of the node, by its value. Adding one is a folder with its `<Resource>.resource.ts` and a line here. */
export const resources: Record<string, { description: INodeProperties[] }> = {
	accessToken,
	contact,
	contract,
	contractTemplate,
	coupon,
	creditNote,
	deal,
	dealStage,
	identityVerification,
	image,
	invoice,
	note,
	opportunity,
	order,
	orderLineItem,
	priceAdjustment,
	product,
	productCategory,
	protectionLevel,
	site,
	subscription,
	task,
	tenancy,
	timelineEvent,
	timelineSource,
	timelineTemplate,
	unit,
	unitAllocation,
	unitType,
	webhookEndpoint,
};

/** "Order Line Item" for `orderLineItem`: the dropdown names the resources as their values spell them. */
const nameOf = (value: string) =>
	value.replace(/^./, (first) => first.toUpperCase()).replace(/(?<=.)([A-Z])/g, ' $1');

export const resourceOptions: INodePropertyOptions[] = Object.keys(resources)
	.map((value) => ({ name: nameOf(value), value }))
	.sort((a, b) => a.name.localeCompare(b.name));

/** A resource's Operation choices. */
function operationOptionsOf(description: INodeProperties[]): INodePropertyOptions[] {
	return description
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
}

/** A resource's operations that POST (creates and the API's actions): only these can carry an Idempotency-Key. */
function postOperationsOf(description: INodeProperties[]): string[] {
	return operationOptionsOf(description)
		.filter((option) => option.routing?.request?.method === 'POST')
		.map((option) => String(option.value));
}

/**
 * A resource's properties with Idempotency Key under Options for every operation that POSTs: added to the Options
 * collection such an operation has (split in two where operations that do not POST share it), or in an Options
 * collection of its own.
 */
function withIdempotencyKey(resource: string, properties: INodeProperties[]): INodeProperties[] {
	const posts = postOperationsOf(properties);
	const covered = new Set<string>();
	const showFor = (property: INodeProperties, operation: string[]) => ({
		...property.displayOptions,
		show: { ...property.displayOptions?.show, operation },
	});
	const result = properties.flatMap((property) => {
		const operations = (property.displayOptions?.show?.operation ?? []) as string[];
		const posting = operations.filter((operation) => posts.includes(operation));
		if (property.name !== 'options' || posting.length === 0) return [property];
		for (const operation of posting) covered.add(operation);
		const others = operations.filter((operation) => !posts.includes(operation));
		const withKey = {
			...property,
			options: [...(property.options ?? []), idempotencyKeyOption()],
			displayOptions: showFor(property, posting),
		};
		return others.length
			? [withKey, { ...property, displayOptions: showFor(property, others) }]
			: [withKey];
	});
	const bare = posts.filter((operation) => !covered.has(operation));
	if (bare.length) {
		result.push({
			...optionsCollection([idempotencyKeyOption()]),
			displayOptions: { show: { resource: [resource], operation: bare } },
		});
	}
	return result;
}

/** Whether n8n checks a value of this property when it shows issues: a locator mode's regex, or a validated type. */
const isValidated = (property: INodeProperties) =>
	Boolean(property.validateType) ||
	(property.modes ?? []).some((mode) => (mode.validation ?? []).length > 0);

/**
 * n8n (1.x and 2.x, `getParameterIssues`) checks the options of a `collection` at the collection's own level, whether
 * or not the collection is shown: an option named as a top-level parameter (Order → Create's Additional Fields →
 * Contact, `contactId`) is checked against that parameter's value, and a bad Contact ID of Contact → Get is reported
 * twice in the "node has issues" list. Such an option is shown only for its collection's resource and operations
 * (root paths, which hold wherever n8n evaluates them), so n8n checks it there alone. Names and values are unchanged.
 */
function checkedInTheirCollection(properties: INodeProperties[]): INodeProperties[] {
	const topLevel = new Set(properties.map((property) => property.name));
	return properties.map((property) => {
		const show = property.displayOptions?.show;
		if (property.type !== 'collection' || !show?.resource) return property;
		const options = (property.options as INodeProperties[]).map((option) =>
			topLevel.has(option.name) && isValidated(option)
				? {
						...option,
						displayOptions: {
							...option.displayOptions,
							show: {
								...option.displayOptions?.show,
								'/resource': show.resource,
								...(show.operation ? { '/operation': show.operation } : {}),
							},
						},
					}
				: option,
		);
		return { ...property, options };
	});
}

/** Each resource's operations, by value. */
export const operationsOf: Record<string, string[]> = Object.fromEntries(
	Object.entries(resources).map(([name, { description }]) => [
		name,
		operationOptionsOf(description).map((option) => String(option.value)),
	]),
);

/** Every resource's properties as its files define them, before the resources share what they define alike. */
export const perResourceProperties: INodeProperties[] = checkedInTheirCollection(
	Object.entries(resources).flatMap(([name, resource]) =>
		withIdempotencyKey(name, mergeAcrossOperations(resource.description)),
	),
);

export const resourceProperties: INodeProperties[] = mergeAcrossResources(
	perResourceProperties,
	operationsOf,
);

/**
 * Every resource with a Get Many operation: its list URL and the options of its "Filters" collection, read from the
 * descriptions themselves so the Stora Poll Trigger offers exactly what the action node lists, filtered the same way.
 */
export const listableResources: Array<{
	name: string;
	value: string;
	url: string;
	filters: INodeProperties[];
}> = resourceOptions.flatMap(({ name, value }) => {
	const { description } = resources[value as string];
	const operation = description.find((property) => property.name === 'operation');
	const getAll = (operation?.options as INodePropertyOptions[] | undefined)?.find(
		(option) => option.value === 'getAll',
	);
	const url = getAll?.routing?.request?.url;
	if (typeof url !== 'string' || url.startsWith('=')) return [];
	const filters = description.find(
		(property) =>
			property.name === 'filters' &&
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes('getAll'),
	);
	return [
		{
			name,
			value: value as string,
			url,
			filters: (filters?.options as INodeProperties[] | undefined) ?? [],
		},
	];
});
