/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * One contract between the filters the descriptions send and the checks the transport makes. Every filter
 * of every Get Many in the built description must be declared in transport/listFilters.ts, checked on a field its
 * resource's records carry (the shipped output schema says which) or exempted with a reason, and named in the error by
 * the label the user sees; and each check must catch a record that contradicts its filter.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { shownFor } from '../../../nodes/Stora/helpers/shownFor';
import { Stora } from '../../../nodes/Stora/Stora.node';
import {
	checkFiltersApplied,
	filterCheckOf,
	filterLabel,
} from '../../../nodes/Stora/transport/listFilters';

interface Filter {
	resource: string;
	label: string;
	/** The query parameter it sends (`metadata[key]` for the metadata rows). */
	wire: string;
}

/** Every filter of every Get Many's Filters collection, as the built description sends it. */
function filters(): Filter[] {
	const found: Filter[] = [];
	for (const property of new Stora().description.properties) {
		if (property.name !== 'filters' || property.type !== 'collection') continue;
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of (property.options ?? []) as INodeProperties[]) {
				if (!shownFor(option, resource, 'getAll')) continue;
				const wire =
					option.name === 'metadata'
						? 'metadata[key]'
						: String(option.routing?.send?.property ?? '');
				found.push({ resource, label: option.displayName, wire });
			}
		}
	}
	return found;
}

/** The fields a resource's listed records carry: the output schema n8n's editor previews its Get Many with. */
function recordFields(resource: string): Set<string> {
	const file = path.join(
		__dirname,
		'../../../nodes/Stora/__schema__/v1.0.0',
		resource,
		'getAll.json',
	);
	return new Set(
		Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { properties: object }).properties),
	);
}

const node = {
	id: 'n',
	name: 'Stora',
	type: 'n8n-nodes-stora.stora',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

describe('Get Many filters: one contract between descriptions and transport', () => {
	const all = filters();

	it('finds the filters of every Get Many that has them', () => {
		expect(new Set(all.map((filter) => filter.resource)).size).toBeGreaterThanOrEqual(16);
		expect(all.length).toBeGreaterThan(100);
	});

	it('declares every filter in transport/listFilters.ts: checked, or exempted with its reason', () => {
		const undeclared = all.filter(
			(filter) => filterCheckOf(filter.resource, filter.wire) === undefined,
		);
		expect(
			undeclared.map((filter) => `${filter.resource}: ${filter.label} (${filter.wire})`),
		).toEqual([]);
		for (const filter of all) {
			const check = filterCheckOf(filter.resource, filter.wire);
			if (check?.kind === 'unchecked') expect(check.reason.length).toBeGreaterThan(10);
		}
	});

	it("checks each filter on a field its resource's records carry (the output schema), else exempts it", () => {
		const wrong: string[] = [];
		for (const filter of all) {
			const check = filterCheckOf(filter.resource, filter.wire)!;
			const fields = recordFields(filter.resource);
			const needed =
				check.kind === 'equals' || check.kind === 'reference'
					? [check.field]
					: check.kind === 'after' || check.kind === 'before'
						? check.fields
						: check.kind === 'email'
							? ['email']
							: check.kind === 'metadata'
								? ['metadata']
								: undefined;
			if (needed && !needed.some((field) => fields.has(field))) {
				wrong.push(
					`${filter.resource}: ${filter.label} (${filter.wire}) checks ${needed.join(' or ')}, which its records do not carry`,
				);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('names each filter in its error by the label the user sees', () => {
		const wrong = all
			.filter((filter) => filterLabel(filter.resource, filter.wire) !== filter.label)
			.map(
				(filter) =>
					`${filter.resource}: "${filterLabel(filter.resource, filter.wire)}" for "${filter.label}" (${filter.wire})`,
			);
		expect(wrong).toEqual([]);
	});

	it('stops on a record that contradicts a checked filter, naming it, and lets a record that satisfies it through', () => {
		let checked = 0;
		for (const filter of all) {
			const check = filterCheckOf(filter.resource, filter.wire)!;
			if (check.kind === 'unchecked') continue;
			const fields = recordFields(filter.resource);
			const wire = check.kind === 'metadata' ? 'metadata[tier]' : filter.wire;
			let asked: string;
			let good: IDataObject;
			let bad: IDataObject;
			if (check.kind === 'equals') {
				[asked, good, bad] = ['wanted', { [check.field]: 'wanted' }, { [check.field]: 'other' }];
			} else if (check.kind === 'reference') {
				[asked, good, bad] = [
					'rec_a1',
					{ [check.field]: { id: 'rec_a1' } },
					{ [check.field]: { id: 'rec_b2' } },
				];
			} else if (check.kind === 'email') {
				[asked, good, bad] = [
					'Ann@example.com',
					{ email: 'ann@example.com' },
					{ email: 'bob@example.com' },
				];
			} else if (check.kind === 'metadata') {
				[asked, good, bad] = [
					'gold',
					{ metadata: { tier: 'gold' } },
					{ metadata: { tier: 'silver' } },
				];
			} else {
				const field = check.fields.find((name) => fields.has(name))!;
				const day = field.endsWith('_date');
				const [before, at, later] = day
					? ['2026-01-01', '2026-01-10', '2026-01-20']
					: ['2026-01-01T00:00:00Z', '2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z'];
				asked = '2026-01-10T00:00:00Z';
				good = { [field]: check.kind === 'after' ? (day ? at : later) : before };
				bad = { [field]: check.kind === 'after' ? before : later };
			}
			const qs = { [wire]: asked };
			expect(() =>
				checkFiltersApplied(node, filter.resource, qs, [{ id: 'ok', ...good }]),
			).not.toThrow();
			expect(() =>
				checkFiltersApplied(node, filter.resource, qs, [
					{ id: 'ok', ...good },
					{ id: 'bad', ...bad },
				]),
			).toThrow(`Stora did not apply the filter ${filter.label} (${wire})`);
			checked++;
		}
		expect(checked).toBeGreaterThan(90);
	});
});
