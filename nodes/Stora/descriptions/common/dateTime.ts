/** Date-time fields, sent as the instant they mean in the workflow's time zone. */
import type { INodeProperties } from 'n8n-workflow';

import { sendInWorkflowTimeZone } from '../../helpers/dateTime';
import { checkDate } from '../../helpers/validation';

/**
 * `routing.send` of a date-time field: checked before any request (`checkDate`, naming the field), then sent as the
 * instant it means in the workflow's time zone, in ISO 8601 UTC (helpers/dateTime.ts). Left empty it is not sent, or
 * sent as null with `emptyAsNull` (which clears the field on the record).
 */
export function dateTimeSend(
	type: 'query' | 'body',
	property: string,
	parameter: string,
	label: string,
	emptyAsNull = false,
): NonNullable<INodeProperties['routing']>['send'] {
	return { type, property, preSend: [checkDate(parameter, label), sendInWorkflowTimeZone(type, property, emptyAsNull)] };
}
