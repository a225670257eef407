import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { listableResources } from '../Stora/descriptions';
import { filtersCollection } from '../Stora/descriptions/common/filters';
import { authenticationProperty, storaCredentials } from '../Stora/helpers/authentication';
import * as loadOptions from '../Stora/methods/loadOptions';
import { MAX_RECORDS, timeOf, type TimeField } from '../Stora/transport/walk';
import {
	checkTimed,
	filterQuery,
	newestRecord,
	pollFilters,
	recordsSince,
	startingPoint,
} from './poll';

/** What the node keeps between polls, in the workflow's static data. */
interface Cursor {
	/** The resource, event and filters the cursor belongs to: another choice starts again from now. */
	key?: string;
	/** The newest timestamp emitted (ISO), sent as the inclusive created_after / updated_after. */
	cursor?: string;
	/** IDs already emitted at exactly `cursor`, so records sharing that second are emitted once. */
	idsAtCursor?: string[];
	/** When a poll found that the list does not honour the time walk (ISO): polls page by number for a day. */
	byPageSince?: string;
}

/** How long a list found not to honour the time walk is paged by number before the walk is tried again. */
const BY_PAGE_FOR_MS = 24 * 60 * 60 * 1000;

/** Each listable resource's Get Many filters (but the Created and Updated date ranges), shown for that resource. */
const filterProperties: INodeProperties[] = listableResources.flatMap(({ value, filters }) => {
	const offered = pollFilters(filters);
	return offered.length
		? updateDisplayOptions({ show: { pollResource: [value] } }, [filtersCollection(offered)])
		: [];
});

export class StoraPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		// n8n's node creator drops "Trigger" from a trigger listed with its events: this one shows as "Stora Polling".
		displayName: 'Stora Polling Trigger',
		name: 'storaPollTrigger',
		icon: { light: 'file:../../icons/stora.svg', dark: 'file:../../icons/stora.dark.svg' },
		group: ['trigger'],
		version: 1,
		polling: true,
		subtitle:
			'={{$parameter["event"] === "updated" ? "New or updated " : "New "}}{{$parameter["pollResource"]}}',
		description:
			'Starts the workflow when a Stora record is created or updated, by checking Stora on a schedule. A community node, not made or endorsed by Stora',
		defaults: { name: 'Stora Polling Trigger' },
		// What n8n's AI workflow builders read; older n8n ignores it.
		builderHint: {
			searchHint:
				"Community trigger for Stora self-storage (not made by Stora) that checks a Stora list on a schedule and emits each new (or updated) record once, as one item per record; needs no public URL. Pick the resource and the list's own filters (e.g. Contact with status lead). For events as they happen use the Stora Trigger.",
			relatedNodes: [
				{ nodeType: 'n8n-nodes-stora.stora', relationHint: 'Acts on each emitted record' },
				{
					nodeType: 'n8n-nodes-stora.storaTrigger',
					relationHint: 'Webhook events instead of polling, where n8n has a public https URL',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: storaCredentials,
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				// Not `resource`: n8n appends "Custom API Call" to a parameter of that name, which a poll cannot do.
				name: 'pollResource',
				type: 'options',
				noDataExpression: true,
				options: listableResources.map(({ name, value }) => ({ name, value })),
				default: 'contact',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Record',
						value: 'created',
						description: 'A record was created (by its created_at)',
					},
					{
						name: 'New or Updated Record',
						value: 'updated',
						description: 'A record was created or changed (by its updated_at)',
					},
				],
				default: 'created',
			},
			...filterProperties,
			{
				displayName: `Each poll emits the records created (or updated) since the last one, oldest first, at most ${MAX_RECORDS.toLocaleString('en-US')} (the rest come in the next poll). It asks Stora only for what is new; should a list ignore the sort or the time filter, the node pages through the whole filtered list on each poll instead (it says so in n8n's log), so filters keep that cheap. The first poll after activation starts from now by Stora's clock and emits no history.`,
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
		],
	};

	methods = { loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const resource = this.getNodeParameter('pollResource') as string;
		const field: TimeField =
			this.getNodeParameter('event') === 'updated' ? 'updated_at' : 'created_at';
		const listed = listableResources.find((entry) => entry.value === resource);
		if (!listed)
			throw new NodeOperationError(this.getNode(), `Resource "${resource}" has no list to poll`);
		checkTimed(this.getNode(), resource, listed.name, field);
		const filterQs = await filterQuery(this, pollFilters(listed.filters));
		const list = { url: listed.url, field, filterQs, resource };

		if (this.getMode() === 'manual') {
			const newest = await newestRecord(this, list);
			return newest ? [this.helpers.returnJsonArray([newest])] : null;
		}

		const state = this.getWorkflowStaticData('node') as Cursor & IDataObject;
		const key = JSON.stringify([resource, field, filterQs]);
		if (state.key !== key || state.cursor === undefined) {
			// First activation (or another resource, event or filter): start from now by Stora's clock, emit no history.
			const start = await startingPoint(this, list);
			if (start.source === 'n8n clock') {
				this.logger.warn(
					"Stora Poll Trigger: Stora's answer had no Date header and no record, so the first cursor is n8n's clock",
				);
			}
			state.key = key;
			state.cursor = start.cursor;
			state.idsAtCursor = start.ids;
			delete state.byPageSince;
			return null;
		}

		const seen = new Set(state.idsAtCursor ?? []);
		const byPage =
			state.byPageSince !== undefined &&
			Date.now() - Date.parse(state.byPageSince) < BY_PAGE_FOR_MS;
		const found = await recordsSince(this, { ...list, cursor: state.cursor, seen, byPage });
		// The cursor moves only here, after every page came back: a poll that fails half-way is repeated in full.
		if (found.byPage && !byPage) {
			state.byPageSince = new Date().toISOString();
			this.logger.warn(
				`Stora Poll Trigger: the ${listed.url} list did not honour the sort or ${field.replace(/_at$/, '')}_after; polls page through the whole filtered list for the next 24 hours`,
			);
		} else if (!found.byPage) {
			delete state.byPageSince;
		}
		const { records } = found;
		if (!records.length) return null;
		const newest = timeOf(records[records.length - 1][field]);
		const atNewest = records
			.filter((record) => timeOf(record[field]) === newest)
			.map((record) => String(record.id));
		state.idsAtCursor = newest === timeOf(state.cursor) ? [...seen, ...atNewest] : atNewest;
		state.cursor = new Date(newest).toISOString();
		return [this.helpers.returnJsonArray(records)];
	}
}
