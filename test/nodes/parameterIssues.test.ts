/**
 * What n8n's editor lists under "node has issues" for a bad value, computed by n8n's own NodeHelpers as the editor
 * does: each bad ID once. n8n checks a `collection`'s options at the collection's level whether it is shown or not, so
 * an option named as a top-level parameter used to report a top-level error a second time (descriptions/index.ts).
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { parameterIssuesFor } from '../helpers/parameterIssues';

const description = new Stora().description;

const issuesFor = parameterIssuesFor;

/** Top-level locators with an ID check, each with one resource and operation that shows it. */
const locators = description.properties.flatMap((property: INodeProperties) => {
	const idMode = property.modes?.find((mode) => mode.name === 'id' && mode.validation?.length);
	// The first value of each display condition (a line item's type, ...), so the locator is shown.
	const shownBy = Object.fromEntries(
		Object.entries(property.displayOptions?.show ?? {}).flatMap(([key, values]) =>
			key.startsWith('@') ? [] : [[key, (values as unknown[])[0]]],
		),
	);
	const { resource, operation } = shownBy as { resource?: string; operation?: string };
	return property.type === 'resourceLocator' && idMode && resource && operation
		? [{ name: property.name, resource, operation, shownBy }]
		: [];
});

describe('Issues n8n lists for a bad value', () => {
	it('covers the ID locators of the node', () => {
		expect(locators.length).toBeGreaterThan(30);
		expect(locators.map((locator) => locator.name)).toContain('contactId');
	});

	it.each(locators)('lists a bad $name once ($resource → $operation)', ({ name, shownBy }) => {
		const issues = issuesFor({
			...(shownBy as INodeParameters),
			[name]: { __rl: true, mode: 'id', value: 'wrong_1' },
		});
		expect(issues[name]).toHaveLength(1);
		expect(issues[name][0]).toMatch(/ID starts with "/);
	});

	it('still checks and shows Contact in Order → Create → Additional Fields', () => {
		const additional = description.properties.find(
			(property) =>
				property.name === 'additionalFields' &&
				(property.displayOptions?.show?.resource as string[] | undefined)?.includes('order'),
		);
		const contact = (additional?.options as INodeProperties[] | undefined)?.find(
			(option) => option.name === 'contactId',
		);
		expect(contact?.type).toBe('resourceLocator');
		const parameters = {
			resource: 'order',
			operation: 'create',
			additionalFields: { contactId: { __rl: true, mode: 'id', value: 'con_1' } },
		};
		expect(
			NodeHelpers.displayParameterPath(parameters, contact!, 'additionalFields', null, description),
		).toBe(true);
		expect(
			NodeHelpers.displayParameterPath(
				{ ...parameters, resource: 'contact', operation: 'get' },
				contact!,
				'additionalFields',
				null,
				description,
			),
		).toBe(false);
	});
});
