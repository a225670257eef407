/**
 * What n8n's AI workflow builders read (`builderHint`): one on each node, and one on every parameter where a model
 * goes wrong (record IDs, money in minor units, Return All's bound, date-times in the workflow's time zone). Each hint
 * is plain text (n8n's lint rule no-builder-hint-leakage refuses expressions and connection names in them; this also
 * covers hints built outside the literal the rule reads), uses only the members n8n-workflow declares, so an n8n that
 * does not read them (1.123) sees an unknown member it ignores, and names only node types that exist.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { MAX_RECORDS } from '../../nodes/Stora/transport/walk';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';
import { walk } from '../helpers/properties';

const nodes: INodeTypeDescription[] = [
	new Stora().description,
	new StoraTrigger().description,
	new StoraPollTrigger().description,
];
const stora = nodes[0];
const NODE_TYPES = new Set([
	...nodes.map((node) => `n8n-nodes-stora.${node.name}`),
	'n8n-nodes-base.removeDuplicates',
]);

const parameters = [...walk(stora.properties)];
const hinted = (property: INodeProperties) =>
	typeof property.builderHint?.propertyHint === 'string' &&
	property.builderHint.propertyHint.length > 40;
const missing = (match: (property: INodeProperties) => boolean) =>
	parameters.filter(([, property]) => match(property) && !hinted(property)).map(([path]) => path);

describe('builderHint, for n8n AI workflow builders', () => {
	it.each(nodes.map((node) => [node.displayName, node]))(
		'%s has a node hint that says it is a community node',
		(_, node) => {
			const hint = node.builderHint!;
			expect(Object.keys(hint).sort()).toEqual(['relatedNodes', 'searchHint']);
			expect(hint.searchHint).toMatch(/^Community (node|trigger) .*\(not made by Stora\)/);
			for (const related of hint.relatedNodes ?? []) {
				expect(NODE_TYPES).toContain(related.nodeType);
				expect(related.relationHint.length).toBeGreaterThan(10);
			}
		},
	);

	it('hints every record picker, record dropdown and ID field with the ID prefix', () => {
		expect(missing((p) => p.type === 'resourceLocator')).toEqual([]);
		expect(missing((p) => p.type === 'options' && !!p.typeOptions?.loadOptionsMethod)).toEqual([]);
		const ids = parameters.filter(([, p]) => p.type === 'resourceLocator');
		expect(ids.length).toBeGreaterThan(30);
		for (const [, property] of ids)
			expect(property.builderHint!.propertyHint).toMatch(/ID starting with "[a-z]+_"/);
	});

	it('hints money in minor units, Return All with its bound, and date-times in the workflow time zone', () => {
		const money = parameters.filter(([, p]) => /Minor Units/.test(p.displayName));
		expect(money.length).toBeGreaterThanOrEqual(3);
		expect(missing((p) => /Minor Units/.test(p.displayName))).toEqual([]);
		for (const [, property] of money)
			expect(property.builderHint!.propertyHint).toContain('45.00 is 4500');

		expect(missing((p) => p.name === 'returnAll')).toEqual([]);
		for (const [, property] of parameters.filter(([, p]) => p.name === 'returnAll')) {
			expect(property.builderHint!.propertyHint).toContain(MAX_RECORDS.toLocaleString('en-GB'));
		}
		expect(missing((p) => p.type === 'dateTime')).toEqual([]);
		for (const [, property] of parameters.filter(([, p]) => p.type === 'dateTime')) {
			expect(property.builderHint!.propertyHint).toContain("workflow's time zone");
		}
		expect(missing((p) => p.name === 'effectiveFrom')).toEqual([]);
	});

	it('holds plain text only: no expression, no connection name, only the members n8n-workflow declares', () => {
		const texts: string[] = [];
		for (const node of nodes) {
			texts.push(
				node.builderHint!.searchHint!,
				...(node.builderHint!.relatedNodes ?? []).map((r) => r.relationHint),
			);
			for (const [path, property] of walk(node.properties)) {
				if (!property.builderHint) continue;
				expect([path, Object.keys(property.builderHint)]).toEqual([path, ['propertyHint']]);
				texts.push(property.builderHint.propertyHint);
			}
		}
		expect(texts.length).toBeGreaterThan(100);
		for (const text of texts) {
			expect(text).not.toMatch(/\{\{|\}\}/);
			expect(text).not.toMatch(/\bai_[a-zA-Z]+/);
		}
	});
});
