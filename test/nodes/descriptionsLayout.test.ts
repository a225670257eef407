/**
 * The order the editor shows the descriptions' properties in: collections sorted as n8n's lint requires, and the
 * properties shared across a resource's operations (descriptions/mergeProperties.ts) shown to each operation as its own file
 * defines them. What the descriptions promise the transport hook is checked in descriptionsRouting.test.ts.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import {
	operationsOf,
	perResourceProperties,
	resourceProperties,
	resources,
} from '../../nodes/Stora/descriptions';
import {
	mergeAcrossOperations,
	mergeAcrossResources,
	signatureOf,
} from '../../nodes/Stora/descriptions/mergeProperties';
import { shownFor } from '../../nodes/Stora/helpers/shownFor';
import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';

describe("Collections in the order n8n's lint requires (node-param-collection-type-unsorted-items)", () => {
	// The lint reads literal arrays only, and the node's collections come from builders: this applies its rule (5 or
	// more fields, by display name) to the built descriptions, nested collections included.
	const unsorted = (properties: INodeProperties[], at: string, into: string[] = []): string[] => {
		for (const property of properties) {
			const options = (property.options ?? []) as Array<
				INodeProperties | INodePropertyCollection | INodePropertyOptions
			>;
			const fields = options.filter(
				(option): option is INodeProperties => 'type' in option && 'displayName' in option,
			);
			if (property.type === 'collection' && fields.length >= 5) {
				const names = fields.map((field) => field.displayName);
				const sorted = [...names].sort((a, b) => a.localeCompare(b));
				if (names.join('|') !== sorted.join('|'))
					into.push(
						`${at}${property.name} (${JSON.stringify(property.displayOptions?.show ?? {})}): ${names.join(', ')}`,
					);
			}
			unsorted(fields, `${at}${property.name}.`, into);
			for (const option of options)
				if ('values' in option && option.values)
					unsorted(option.values, `${at}${property.name}.${option.name}.`, into);
		}
		return into;
	};

	it.each([
		['Stora', () => new Stora().description],
		['Stora Trigger', () => new StoraTrigger().description],
		['Stora Polling Trigger', () => new StoraPollTrigger().description],
	])('%s: every collection of 5 or more fields is sorted by display name', (_name, description) => {
		expect(unsorted(description().properties, '')).toEqual([]);
	});

	it('would catch one out of order', () => {
		const field = (displayName: string): INodeProperties => ({
			displayName,
			name: displayName.toLowerCase(),
			type: 'string',
			default: '',
		});
		const filters: INodeProperties = {
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			default: {},
			options: ['Created After', 'Created Before', 'Email', 'Status', 'Search'].map(field),
		};
		expect(unsorted([filters], '')).toEqual([
			'filters ({}): Created After, Created Before, Email, Status, Search',
		]);
	});
});

describe('Properties shared across operations (descriptions/mergeProperties.ts)', () => {
	/** What a user sees for one operation: the properties shown for it, in order, each without its display options. */
	const seen = (properties: INodeProperties[], resource: string, operation: string) =>
		properties
			.filter((property) => {
				const show = property.displayOptions?.show;
				return (
					(show?.resource as string[] | undefined)?.includes(resource) !== false &&
					(show?.operation as string[] | undefined)?.includes(operation) !== false
				);
			})
			.map(signatureOf);

	it('show every operation exactly the properties its own file defines, in the same order', () => {
		let merged = 0;
		for (const [resource, { description }] of Object.entries(resources)) {
			const shared = mergeAcrossOperations(description);
			merged += description.length - shared.length;
			const operations = (description.find((property) => property.name === 'operation')?.options ??
				[]) as INodePropertyOptions[];
			expect(operations.length).toBeGreaterThan(0);
			for (const { value } of operations) {
				expect({
					resource,
					operation: value,
					properties: seen(shared, resource, String(value)),
				}).toEqual({
					resource,
					operation: value,
					properties: seen(description, resource, String(value)),
				});
			}
		}
		expect(merged).toBeGreaterThan(0);
	});

	it('give Contact one Contact locator for every operation whose file defines one (Get, Update, Delete, ...)', () => {
		const { description } = resources.contact;
		// Read from the operation files, so a new operation with the locator needs no change here.
		const defining = description
			.filter((property) => property.name === 'contactId')
			.flatMap((property) => property.displayOptions?.show?.operation as string[]);
		expect(defining).toEqual(expect.arrayContaining(['delete', 'get', 'update']));
		const locators = mergeAcrossOperations(description).filter(
			(property) => property.name === 'contactId',
		);
		expect(locators).toHaveLength(1);
		expect([...(locators[0].displayOptions?.show?.operation as string[])].sort()).toEqual(
			[...defining].sort(),
		);
	});

	it('keep a copy apart where a property of the operation lies between the two', () => {
		const show = (operation: string) => ({
			show: { resource: ['contact'], operation: [operation] },
		});
		const id: INodeProperties = {
			displayName: 'ID',
			name: 'id',
			type: 'string',
			default: '',
			displayOptions: show('get'),
		};
		const before: INodeProperties = {
			displayName: 'Before',
			name: 'before',
			type: 'string',
			default: '',
			displayOptions: show('update'),
		};
		const shared = mergeAcrossOperations([id, before, { ...id, displayOptions: show('update') }]);
		expect(shared.map((property) => property.name)).toEqual(['id', 'before', 'id']);
		expect(
			mergeAcrossOperations([
				id,
				{ ...before, displayOptions: show('delete') },
				{ ...id, displayOptions: show('update') },
			]),
		).toHaveLength(2);
	});
});

describe('Properties shared across resources (descriptions/mergeProperties.ts mergeAcrossResources)', () => {
	/** A property or field as the user meets it, without the conditions that say where. */
	const bare = (property: INodeProperties) => {
		const show = { ...(property.displayOptions?.show ?? {}) };
		for (const key of ['resource', 'operation', '/resource', '/operation']) delete show[key];
		return signatureOf({
			...property,
			...(property.type === 'collection' ? { options: [] } : {}),
			displayOptions: { ...property.displayOptions, show },
		});
	};
	/** What the editor shows for one operation: each property in order, a collection's fields (Add Field) with it. */
	const seen = (properties: INodeProperties[], resource: string, operation: string) =>
		properties
			.filter((property) => shownFor(property, resource, operation))
			.map((property) => ({
				property: bare(property),
				fields:
					property.type === 'collection'
						? ((property.options ?? []) as INodeProperties[])
								.filter((field) => shownFor(field, resource, operation))
								.map(bare)
								.sort()
						: undefined,
			}));

	it('show every operation of every resource the properties and fields its files define, in the same order', () => {
		let operations = 0;
		for (const [resource, values] of Object.entries(operationsOf))
			for (const operation of values) {
				operations++;
				expect({
					resource,
					operation,
					seen: seen(resourceProperties, resource, operation),
				}).toEqual({
					resource,
					operation,
					seen: seen(perResourceProperties, resource, operation),
				});
			}
		expect(operations).toBeGreaterThan(80);
	});

	it('define each of Additional Fields, Filters and Return All once', () => {
		for (const name of ['additionalFields', 'filters', 'returnAll'])
			expect([
				name,
				resourceProperties.filter((property) => property.name === name).length,
			]).toEqual([name, 1]);
		expect(resourceProperties.length).toBeLessThan(perResourceProperties.length / 1.5);
	});

	it('keep copies apart where one property would show for an operation that had none', () => {
		const copy = (resource: string, operation: string): INodeProperties => ({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			default: {},
			options: [{ displayName: resource, name: resource, type: 'string', default: '' }],
			displayOptions: { show: { resource: [resource], operation: [operation] } },
		});
		// contact → update has no Options: one copy for contact and deal would show there.
		const both = [copy('contact', 'create'), copy('deal', 'update')];
		const operationsByResource = { contact: ['create', 'update'], deal: ['update'] };
		expect(mergeAcrossResources(both, operationsByResource)).toHaveLength(2);
		const merged = mergeAcrossResources([copy('contact', 'create'), copy('deal', 'create')], {
			contact: ['create'],
			deal: ['create'],
		});
		expect(merged).toHaveLength(1);
		expect(
			(merged[0].options as INodeProperties[]).map((field) => [
				field.name,
				field.displayOptions?.show?.['/resource'],
			]),
		).toEqual([
			['contact', ['contact']],
			['deal', ['deal']],
		]);
	});
});
