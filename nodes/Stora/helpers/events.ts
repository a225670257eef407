/**
 * Webhook event types. The docs' enum is cut off in every stored copy; these are the types confirmed by event pages
 * and guide examples. Kept in one place for the trigger and the Webhook Endpoint resource; see the README.
 */
const EVENT_TYPES = [
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

/** The shape of an event type: lowercase words (letters, digits, underscores) joined by dots, e.g. `deal.won`. */
const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;

/**
 * Event types typed as comma-separated text (types Stora sends that are not in EVENT_TYPES yet): trimmed, blanks and
 * repeats dropped; `invalid` holds the entries that are not shaped like an event type.
 */
export function parseEventTypes(raw: unknown): { types: string[]; invalid: string[] } {
	const entries = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((entry) => String(entry).trim())
		.filter((entry) => entry !== '');
	const unique = [...new Set(entries)];
	return {
		types: unique.filter((entry) => EVENT_TYPE_PATTERN.test(entry)),
		invalid: unique.filter((entry) => !EVENT_TYPE_PATTERN.test(entry)),
	};
}
