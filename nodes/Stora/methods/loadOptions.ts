import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listPage } from './listSearch/searchList';

/** Pages of a list endpoint read for a dropdown: fixed choices that live in the API are few, so a handful suffice. */
const MAX_DROPDOWN_PAGES = 10;

function dropdown(
	path: string,
	label: (record: IDataObject) => string,
	description?: (record: IDataObject) => string,
	/** Order of the choices: by name unless the records have an order of their own (deal stages: pipeline position). */
	order: (a: IDataObject, b: IDataObject) => number = (a, b) => label(a).localeCompare(label(b)),
) {
	return async function (this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const records: IDataObject[] = [];
		let page: number | undefined = 1;
		for (let read = 0; page !== undefined && read < MAX_DROPDOWN_PAGES; read++) {
			const result = await listPage(this, path, {
				page,
				sort_by: 'created_at',
				sort_direction: 'ASC',
			});
			records.push(...result.records);
			page = result.next;
		}
		return records.sort(order).map((record) => ({
			name: label(record),
			value: String(record.id),
			description: description?.(record),
		}));
	};
}

const nameOf = (record: IDataObject) => String(record.name ?? record.title ?? record.id);

export const getSites = dropdown('/sites', nameOf);
export const getDealStages = dropdown(
	'/deals/stages',
	nameOf,
	undefined,
	(a, b) => Number(a.position ?? 0) - Number(b.position ?? 0),
);
export const getUnitTypes = dropdown('/unit_types', (unitType) => {
	const site = unitType.site as IDataObject | undefined;
	return `${nameOf(unitType)}${site?.id ? ` (${String(site.id)})` : ''}`;
});
export const getContractTemplates = dropdown('/contract_templates', nameOf);
export const getTimelineSources = dropdown('/timeline/sources', nameOf);
export const getTimelineTemplates = dropdown('/timeline/templates', nameOf, (template) =>
	String(template.message ?? template.description ?? ''),
);
