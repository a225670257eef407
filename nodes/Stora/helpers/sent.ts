import type { IDataObject, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

/** What `sentValue` answers where the request carries nothing for the parameter. */
export const NOT_SENT = Symbol('not sent');

/**
 * The value RoutingNode put into the request for `property` (its `routing.send` to a body or query member), so a check
 * reads what is sent instead of evaluating the parameter's expression once more. NOT_SENT where the property sends
 * nothing there, names its member by an expression, or changes its value on the way (`send.value`).
 */
export function sentValue(
	options: IHttpRequestOptions,
	property: Pick<INodeProperties, 'routing'>,
): unknown {
	const send = property.routing?.send;
	const member = send?.property;
	if (!send || typeof member !== 'string' || member.startsWith('=') || send.value !== undefined)
		return NOT_SENT;
	let holder: unknown = send.type === 'body' ? options.body : options.qs;
	const path = send.propertyInDotNotation === false ? [member] : member.split('.');
	for (const key of path) {
		if (!holder || typeof holder !== 'object' || !(key in (holder as IDataObject))) return NOT_SENT;
		holder = (holder as IDataObject)[key];
	}
	return holder;
}
