/** Date-time fields, sent as the instant they mean in the workflow's time zone. */
import type { INodeProperties } from 'n8n-workflow';

import { sendInWorkflowTimeZone } from '../../helpers/dateTime';
import { checkDate } from '../../helpers/validation';

/** What n8n's AI workflow builders read on a date-time field: a model tends to send a local time as if it were UTC. */
export const DATE_TIME_HINT = {
	propertyHint:
		"An ISO 8601 date-time. Without an offset it is read in the workflow's time zone (Workflow Settings, Timezone; else n8n's GENERIC_TIMEZONE), so 2026-05-01T09:00 is 9:00 there; add Z or an offset for an exact instant. In an expression use $now (already in that zone), e.g. $now.plus({ days: 3 }).toISO().",
};

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
	return {
		type,
		property,
		preSend: [checkDate(parameter, label), sendInWorkflowTimeZone(type, property, emptyAsNull)],
	};
}
