/**
 * Webhook event types. The docs' enum is cut off in every stored copy; these are the types confirmed by event pages
 * and guide examples. Kept in one place for the trigger and the Webhook Endpoint resource; see the README.
 */
export const EVENT_TYPES = [
	'contact.churned',
	'contact.created',
	'contact.updated',
	'credit_note.created',
	'deal.lost',
	'deal.updated',
	'identity_verification.processing',
	'identity_verification.succeeded',
	'invoice.created',
	'invoice.paid',
	'order.created',
	'protection_level.created',
	'unit.updated',
];

/** Options for an event-type picker: "Invoice Paid" for `invoice.paid`. */
export const EVENT_TYPE_OPTIONS = EVENT_TYPES.map((type) => ({
	name: type
		.split(/[._]/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' '),
	value: type,
})).sort((a, b) => a.name.localeCompare(b.name));
