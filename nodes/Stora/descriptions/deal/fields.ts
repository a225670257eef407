/** The fields of Deal Create and Update (and what Get, Win, Lose and Reopen can expand). */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { checkId } from '../../helpers/ids';
import { ID_PREFIXES } from '../../helpers/records';
import { fail } from '../../helpers/validation';
import { EMPTY_AS_NULL, metadataBodyField } from '../common/bodies';
import { DATE_TIME_HINT, dateTimeSend } from '../common/dateTime';
import { idField, recordDropdown } from '../common/records';

/** What `expand` can return in full on a deal. */
export const DEAL_EXPAND = ['assignee', 'contact', 'creator', 'line_items.item', 'site', 'stage'];

/**
 * `line_items` from a deal's Unit Type and Protection Level fields: at most one of each, and sending them replaces the
 * deal's line items.
 */
function sendDealLineItems(collection: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const fields = this.getNodeParameter(collection, {}) as IDataObject;
		const lineItems: IDataObject[] = [];
		if (fields.unitTypeId)
			lineItems.push({ type: 'unit_type', item: { id: String(fields.unitTypeId).trim() } });
		if (fields.protectionLevelId) {
			lineItems.push({ type: 'protection', item: { id: String(fields.protectionLevelId).trim() } });
		}
		if (lineItems.length)
			options.body = {
				...((options.body as IDataObject | undefined) ?? {}),
				line_items: lineItems,
			};
		return options;
	};
}

/**
 * A Deal Update switch that empties a member of the deal, as the docs allow: `assignee: null` and `site: null` remove
 * them, `line_items: []` clears the line items. An empty ID field cannot say this (it fails the ID check, so a typo
 * never unassigns), and the switch cannot be combined with the fields that set the same member.
 */
function dealRemovalSwitch(options: {
	collection: string;
	displayName: string;
	name: string;
	property: string;
	cleared: null | [];
	/** The Update Fields that set the same member: [parameter name, display name]. */
	setBy: Array<[string, string]>;
	description: string;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'boolean',
		default: true,
		description: options.description,
		routing: {
			send: {
				preSend: [
					async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
						const fields = this.getNodeParameter(options.collection, {}) as IDataObject;
						if (fields[options.name] !== true) return requestOptions;
						const clash = options.setBy.find(([name]) => fields[name] !== undefined);
						if (clash) {
							fail(
								this,
								`${options.displayName} and ${clash[1]} cannot be used together`,
								`${options.displayName} empties what ${clash[1]} would set: remove one of them.`,
							);
						}
						requestOptions.body = {
							...((requestOptions.body as IDataObject | undefined) ?? {}),
							[options.property]: options.cleared === null ? null : [],
						};
						return requestOptions;
					},
				],
			},
		},
	};
}

/** The optional members of Deal Create (Additional Fields) and Update (Update Fields). */
export function dealFields(collection: string, update: boolean): INodeProperties[] {
	const path = (name: string) => `${collection}.${name}`;
	const replaces = ' Sending a unit type or protection level replaces all line items of the deal';
	const lineItems = update ? `${replaces}; to remove them all, use Clear Line Items.` : '';
	const unitType = recordDropdown('unitType', {
		path: path('unitTypeId'),
		description: `Unit type the contact is interested in, as the deal's unit type line item${update ? `.${replaces}` : ''}`,
	});
	const lineItemFields: Array<[string, string]> = [
		['unitTypeId', 'Unit Type'],
		['protectionLevelId', 'Protection Level ID'],
	];
	return [
		idField('staff', {
			displayName: 'Assignee ID',
			name: 'assigneeId',
			path: path('assigneeId'),
			property: 'assignee',
			description: `ID of the staff member who owns the deal (staff_...)${update ? '. To remove the assignee, use Unassign instead.' : ''}`,
		}),
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Clear Line Items',
						name: 'clearLineItems',
						property: 'line_items',
						cleared: [],
						setBy: lineItemFields,
						description:
							"Whether to remove all line items (unit type and protection level) of the deal. Sends line_items: [], which the API takes as 'clear'.",
					}),
				]
			: []),
		metadataBodyField(collection),
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: update
				? 'New name of the deal'
				: "Name of the deal. Defaults to the contact's name.",
			routing: { send: { type: 'body', property: 'name' } },
		},
		{
			displayName: 'Note',
			name: 'note',
			type: 'string',
			default: '',
			description: `Free text shown as the value estimate in Backoffice, e.g. "£50 per month"${update ? '. Leave empty to clear it.' : ''}`,
			routing: { send: { type: 'body', property: 'note', value: EMPTY_AS_NULL } },
		},
		{
			displayName: 'Protection Level ID',
			name: 'protectionLevelId',
			type: 'string',
			default: '',
			placeholder: `${ID_PREFIXES.protectionLevel}a1b2c3`,
			description: `Protection level (plvl_...) the contact is interested in, as the deal's protection line item.${lineItems}`,
			routing: {
				send: {
					preSend: [
						checkId(path('protectionLevelId'), 'Protection Level ID', ID_PREFIXES.protectionLevel),
						sendDealLineItems(collection),
					],
				},
			},
		},
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Remove Site',
						name: 'removeSite',
						property: 'site',
						cleared: null,
						setBy: [['siteId', 'Site']],
						description:
							"Whether to remove the deal's site. Sends site: null, which the API takes as 'remove'.",
					}),
				]
			: []),
		recordDropdown('site', {
			path: path('siteId'),
			property: 'site',
			description: `Site the contact wants to store at${update ? ' (to remove the site, use Remove Site instead)' : ''}`,
		}),
		recordDropdown('dealStage', {
			name: 'stageId',
			path: path('stageId'),
			property: 'stage',
			description: update
				? 'Pipeline stage to move the deal to'
				: 'Pipeline stage to create the deal in',
		}),
		{
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'dateTime',
			builderHint: DATE_TIME_HINT,
			default: '',
			description: `Intended move-in date${update ? '. Leave empty to clear it.' : ''}`,
			routing: { send: dateTimeSend('body', 'starts_at', path('startsAt'), 'Starts At', true) },
		},
		...(update
			? [
					dealRemovalSwitch({
						collection,
						displayName: 'Unassign',
						name: 'unassign',
						property: 'assignee',
						cleared: null,
						setBy: [['assigneeId', 'Assignee ID']],
						description:
							"Whether to remove the deal's assignee. Sends assignee: null, which the API takes as 'remove'.",
					}),
				]
			: []),
		{
			...unitType,
			routing: {
				send: {
					preSend: [...(unitType.routing?.send?.preSend ?? []), sendDealLineItems(collection)],
				},
			},
		},
	];
}
