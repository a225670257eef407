/**
 * One naming rule for record parameters (docs/ARCHITECTURE.md, "Record parameters"), checked on the built description:
 * - top level: a resource's own record is `<resource>Id`, a record of another kind picked there `<resource><Kind>Id`
 *   (`dealContactId`, `orderLineItemOrderId`), and a link that may be a record of one of several kinds
 *   `<resource>RecordId` (a note's record). n8n evaluates every namesake of a parameter for each item, so a top-level
 *   name says the resource and is defined once; `fillRecordIds` reads a URL placeholder's kind from the name.
 * - inside a collection: named for the API member it sets (`stage.id` → `stageId`; a filter on `stage_id` → `stageIds`).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { RECORDS, recordKindOfParameter, type RecordKind } from '../../nodes/Stora/helpers/records';
import { Stora } from '../../nodes/Stora/Stora.node';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const camel = (member: string) =>
	member.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase());
const kindByPrefix = new Map(
	Object.entries(RECORDS).map(([kind, { prefix }]) => [prefix as string, kind as RecordKind]),
);
const kindByDropdown = new Map(
	Object.entries(RECORDS).flatMap(([kind, record]) =>
		'loadOptionsMethod' in record ? [[record.loadOptionsMethod as string, kind as RecordKind]] : [],
	),
);

/** The kinds a record parameter takes: a locator's By ID pattern, a dropdown's list; undefined for anything else. */
function kindsOf(property: INodeProperties): RecordKind[] | undefined {
	if (property.type === 'resourceLocator') {
		const byId = property.modes?.find((mode) => mode.name === 'id');
		const pattern = byId?.validation?.find(
			(rule) => typeof rule === 'object' && rule.type === 'regex',
		) as { properties: { regex: string } } | undefined;
		const prefixes =
			/^\^\(\?:([^)]*)\)/.exec(pattern?.properties.regex ?? '')?.[1].split('|') ?? [];
		return prefixes.map((prefix) => kindByPrefix.get(prefix) as RecordKind);
	}
	const method = property.typeOptions?.loadOptionsMethod;
	if (typeof method === 'string' && kindByDropdown.has(method))
		return [kindByDropdown.get(method) as RecordKind];
	return undefined;
}

/**
 * What the rule says a top-level parameter of `resource` must be called, or undefined when it is no record parameter.
 * A text field named `...Id` holds an ID typed in: at the top level that is a link to one of several kinds (a single
 * kind is a locator, `locator()` in descriptions/common/records.ts).
 */
function topLevelName(resource: string, property: INodeProperties): string | undefined {
	const kinds = kindsOf(property);
	if (kinds === undefined)
		return property.type === 'string' && /Id$/.test(property.name)
			? `${resource}RecordId`
			: undefined;
	if (kinds.length !== 1) return `${resource}RecordId`;
	return kinds[0] === resource ? `${resource}Id` : `${resource}${capitalized(kinds[0])}Id`;
}

/** Every top-level parameter that breaks the rule, each with what to do. */
function topLevelProblems(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => {
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		return resources.flatMap((resource) => {
			const expected = topLevelName(resource, property);
			if (expected === undefined || expected === property.name) return [];
			const operations = (property.displayOptions?.show?.operation ?? []) as string[];
			return [
				`${resource} → ${operations.join(', ')}: "${property.name}" must be "${expected}" (docs/ARCHITECTURE.md, "Record parameters"). Rename it in the operation file, the URL in <Resource>.resource.ts, and in tests, test/e2e/workflows, examples, README and CHANGELOG.`,
			];
		});
	});
}

/** What the rule says a parameter inside a collection must be called: the API member (or query) it sets. */
function nestedName(collection: string, property: INodeProperties): string | undefined {
	const send = property.routing?.send;
	const member = typeof send?.property === 'string' ? send.property : undefined;
	if (collection === 'filters') {
		const query =
			member !== undefined && send?.type === 'query' ? /^(\w+)_id$/.exec(member)?.[1] : undefined;
		return query === undefined ? undefined : `${camel(query)}Ids`;
	}
	const body = member === undefined ? undefined : /^(\w+)\.id$/.exec(member)?.[1];
	if (body !== undefined) return `${camel(body)}Id`;
	// Sent by a preSend of its own (a deal's line items): named for its kind.
	const kinds = kindsOf(property);
	return kinds?.length === 1 ? `${kinds[0]}Id` : undefined;
}

function nestedProblems(properties: INodeProperties[]): string[] {
	const problems: string[] = [];
	const walk = (resource: string, path: string, collection: string, options: INodeProperties[]) => {
		for (const property of options) {
			const resources = property.displayOptions?.show?.['/resource'] as string[] | undefined;
			if (resources && !resources.includes(resource)) continue;
			if (property.type === 'collection')
				walk(
					resource,
					`${path}.${property.name}`,
					property.name,
					(property.options ?? []) as INodeProperties[],
				);
			const expected = nestedName(collection, property);
			if (expected !== undefined && expected !== property.name) {
				problems.push(
					`${resource}: ${path}.${property.name} must be "${expected}", named for the API member it sets (docs/ARCHITECTURE.md, "Record parameters")`,
				);
			}
		}
	};
	for (const property of properties) {
		if (property.type !== 'collection') continue;
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			walk(resource, property.name, property.name, (property.options ?? []) as INodeProperties[]);
		}
	}
	return problems;
}

describe('Record parameter names', () => {
	const { properties } = new Stora().description;

	it('follow the rule at the top level: <resource>Id, <resource><Kind>Id, <resource>RecordId', () => {
		const named = properties.filter(
			(property) => (property.displayOptions?.show?.resource ?? []).length === 1,
		);
		const checked = named.filter((property) =>
			topLevelName(String(property.displayOptions?.show?.resource?.[0]), property),
		);
		expect(checked.length).toBeGreaterThan(30);
		expect(topLevelProblems(properties)).toEqual([]);
	});

	it('would say what to rename for a name that breaks it', () => {
		const stage = properties.find((property) => property.name === 'dealStageId') as INodeProperties;
		const contact = properties.find(
			(property) => property.name === 'unitContactId',
		) as INodeProperties;
		expect(
			topLevelProblems([
				{ ...stage, name: 'stageId' },
				{ ...contact, name: 'overlockContactId' },
			]),
		).toEqual([
			expect.stringMatching(
				/^dealStage → get: "stageId" must be "dealStageId" \(docs\/ARCHITECTURE\.md/,
			),
			expect.stringMatching(
				/^unit → overlock, removeOverlock: "overlockContactId" must be "unitContactId"/,
			),
		]);
	});

	it('name each record parameter inside a collection for the API member it sets', () => {
		expect(nestedProblems(properties)).toEqual([]);
		const order = properties.find(
			(property) =>
				property.name === 'additionalFields' &&
				property.displayOptions?.show?.resource?.includes('order'),
		) as INodeProperties;
		const renamed = {
			...order,
			options: (order.options as INodeProperties[]).map((option) =>
				option.name === 'contactId' ? { ...option, name: 'contact' } : option,
			),
		};
		// One Additional Fields serves every Create: the renamed field is every resource's that shares it.
		const problems = nestedProblems([renamed]);
		expect(problems).toContainEqual(
			expect.stringMatching(/^order: additionalFields\.contact must be "contactId"/),
		);
		for (const problem of problems)
			expect(problem).toMatch(/: additionalFields\.contact must be "contactId"/);
	});

	it('give every URL placeholder a record kind by the rule, as fillRecordIds reads it', () => {
		const problems: string[] = [];
		let placeholders = 0;
		for (const operation of properties.filter((property) => property.name === 'operation')) {
			const resource = String(operation.displayOptions?.show?.resource?.[0]);
			for (const option of (operation.options ?? []) as INodePropertyOptions[]) {
				for (const [, name] of String(option.routing?.request?.url ?? '').matchAll(/\{(\w+)\}/g)) {
					placeholders++;
					if (recordKindOfParameter(resource, name) === undefined) {
						problems.push(
							`${resource} → ${String(option.value)}: the URL's {${name}} names no record kind; use {${resource}Id} for the resource's own record or {${resource}<Kind>Id} for a record of another kind (Kind from helpers/records.ts), the name of the operation's locator or dropdown`,
						);
					}
				}
			}
		}
		expect(placeholders).toBeGreaterThan(40);
		expect(problems).toEqual([]);
		// The placeholders of before the rule would fail here rather than at run time.
		expect(recordKindOfParameter('dealStage', 'stageId')).toBeUndefined();
		expect(recordKindOfParameter('orderLineItem', 'lineItemOrderId')).toBeUndefined();
		expect(recordKindOfParameter('orderLineItem', 'orderLineItemOrderId')).toBe('order');
		expect(recordKindOfParameter('dealStage', 'dealStageId')).toBe('dealStage');
	});
});
