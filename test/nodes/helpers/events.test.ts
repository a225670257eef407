/**
 * helpers/events.ts, the webhook event types: the picker's options, and the types typed as text checked for their
 * shape before any request (the trigger's and the Webhook Endpoint's use of them: triggerRegistration.test.ts and
 * resources/webhookEndpoint.test.ts).
 */
import { EVENT_TYPE_OPTIONS, parseEventTypes } from '../../../nodes/Stora/helpers/events';

describe('events', () => {
	it('names each event type in the picker by its words, sorted by that name', () => {
		expect(EVENT_TYPE_OPTIONS).toContainEqual({ name: 'Invoice Paid', value: 'invoice.paid' });
		expect(EVENT_TYPE_OPTIONS).toContainEqual({
			name: 'Identity Verification Succeeded',
			value: 'identity_verification.succeeded',
		});
		const names = EVENT_TYPE_OPTIONS.map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(new Set(EVENT_TYPE_OPTIONS.map((option) => option.value)).size).toBe(names.length);
	});

	it('reads typed types from text or a list: trimmed, blanks and repeats dropped, misshapen ones apart', () => {
		expect(parseEventTypes(' deal.lost , invoice.paid,,deal.lost')).toEqual({
			types: ['deal.lost', 'invoice.paid'],
			invalid: [],
		});
		expect(parseEventTypes(['deal.won', ' Deal Won ', 'invoice', 'unit.updated_2'])).toEqual({
			types: ['deal.won', 'unit.updated_2'],
			invalid: ['Deal Won', 'invoice'],
		});
		expect(parseEventTypes(undefined)).toEqual({ types: [], invalid: [] });
		expect(parseEventTypes(' , ')).toEqual({ types: [], invalid: [] });
	});
});
