/** The fields of Webhook Endpoint Create and Update: URL, event types and description. */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { EVENT_TYPE_OPTIONS } from '../../helpers/events';
import { idsOf } from '../../helpers/ids';
import { fail } from '../../helpers/validation';
import { EMPTY_AS_NULL } from '../common/bodies';

/** Stora only delivers webhooks to HTTPS addresses: say so before the API rejects the URL. */
function checkHttpsUrl(parameter: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, undefined) as string | undefined;
		if (raw === undefined) return options;
		let url: URL | undefined;
		try {
			url = new URL(String(raw).trim());
		} catch {
			url = undefined;
		}
		if (!url || url.protocol !== 'https:' || !url.hostname) {
			fail(
				this,
				`URL: "${String(raw)}" is not an https:// URL`,
				'Stora only sends webhooks to public HTTPS addresses, e.g. https://example.com/hooks/stora.',
			);
		}
		return options;
	};
}

/** A webhook endpoint's URL; `path` is the full parameter path for the HTTPS check. */
export function webhookUrlField(path: string, required: boolean): INodeProperties {
	return {
		displayName: 'URL',
		name: 'url',
		type: 'string',
		...(required ? { required: true } : {}),
		default: '',
		placeholder: 'https://example.com/hooks/stora',
		description: 'The HTTPS address Stora sends the events to',
		routing: { send: { type: 'body', property: 'url', preSend: [checkHttpsUrl(path)] } },
	};
}

function checkEventTypes(parameter: string) {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const raw = this.getNodeParameter(parameter, undefined) as string[] | string | undefined;
		if (raw === undefined) return options;
		if (!idsOf(raw).length) {
			fail(
				this,
				'Event Types: choose at least one event type',
				'An endpoint must subscribe to at least one event type.',
			);
		}
		return options;
	};
}

/** A webhook endpoint's event types: the multi-select, or an expression giving an array or a comma-separated string. */
export function webhookEventTypesField(path: string, required: boolean): INodeProperties {
	return {
		displayName: 'Event Types',
		name: 'eventTypes',
		type: 'multiOptions',
		options: EVENT_TYPE_OPTIONS,
		default: [],
		required,
		description: 'The events Stora sends to the URL',
		routing: {
			send: {
				type: 'body',
				property: 'event_types',
				value:
					'={{ (Array.isArray($value) ? $value : String($value ?? "").split(",")).map((type) => String(type).trim()).filter((type) => type !== "") }}',
				preSend: [checkEventTypes(path)],
			},
		},
	};
}

/** A webhook endpoint's description; left empty on update, it clears it. */
export const webhookDescriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'What the endpoint is for. Left empty on update, it clears the description.',
	routing: { send: { type: 'body', property: 'description', value: EMPTY_AS_NULL } },
};
