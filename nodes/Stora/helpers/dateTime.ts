/**
 * Date-times as the workflow means them. n8n's date picker gives a wall-clock time without an offset
 * (`2025-06-01T00:00:00`), and n8n's own nodes read such a value in the workflow's time zone (`getTimezone()`: the
 * workflow's setting, or n8n's GENERIC_TIMEZONE), never in the time zone of the server process. Every date-time the
 * node sends goes through `zonedIso`, so a workflow means the same instant on any server.
 *
 * No luxon at runtime (the package has no dependencies): the zone's offset comes from `Intl.DateTimeFormat`.
 */
import type { IDataObject } from 'n8n-workflow';

import { dateText, isIsoDate, type PreSend } from './validation';

const SECOND = 1000;
const DAY = 86_400_000;

/** The parts of an ISO 8601 date or date-time, in the grammar `isIsoDate` accepts. */
const ISO_PARTS =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?)?$/;

/** Milliseconds since the epoch of a calendar date and time read as UTC (years 0-99 too, which Date.UTC shifts). */
function utcOf(
	year: number,
	month: number,
	day: number,
	hour = 0,
	minute = 0,
	second = 0,
	ms = 0,
): number {
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, ms);
	return date.getTime();
}

// Building a formatter costs far more than using one: one per zone for the life of the process.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			era: 'short',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
			// h23, not hour12: false, which some ICU versions render as "24" at midnight.
			hourCycle: 'h23',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

/** The zone's offset from UTC at `instant` (a whole second), in ms: its wall-clock time there, read as UTC, minus it. */
function offsetAt(instant: number, timeZone: string): number {
	const parts: Record<string, string> = {};
	for (const { type, value } of formatterFor(timeZone).formatToParts(instant)) parts[type] = value;
	const year = /^B/.test(parts.era) ? 1 - Number(parts.year) : Number(parts.year);
	const hour = Number(parts.hour) % 24;
	const wall = utcOf(
		year,
		Number(parts.month),
		Number(parts.day),
		hour,
		Number(parts.minute),
		Number(parts.second),
	);
	return wall - instant;
}

/**
 * The instant at which the zone's clocks show `wall` (a wall-clock time read as UTC, in whole seconds).
 *
 * The rule where the clocks jump is RFC 5545's (section 3.3.5; also java.time's and Temporal's "compatible"): a time
 * that never happens, skipped by a jump forward, is read with the offset in force before the jump, which moves it
 * forward by the jump (Europe/London 2025-03-30 01:30 is 02:30 BST, 01:30Z); a time that happens twice, when the
 * clocks go back, is the first of the two (Europe/London 2025-10-26 01:30 is 01:30 BST, 00:30Z). So a date alone is
 * the first moment of that day even where the day starts with a jump (America/Sao_Paulo 2018-11-04: 01:00 -02:00).
 *
 * The offsets tried are those in force a day either side of the wall-clock time: every offset is under a day, and no
 * zone's clocks have changed twice within two days.
 */
function instantAt(wall: number, timeZone: string): number {
	const before = wall - offsetAt(wall - DAY, timeZone);
	const after = wall - offsetAt(wall + DAY, timeZone);
	const showsWall = (instant: number) => instant + offsetAt(instant, timeZone) === wall;
	const candidates = [before, after].filter(showsWall);
	return candidates.length ? Math.min(...candidates) : before;
}

/**
 * An ISO 8601 date or date-time as the instant it means, in ISO 8601 UTC to the millisecond (`toISOString`, digits
 * past the millisecond dropped). A value with `Z` or an offset means that instant, only rewritten in UTC
 * (`2025-06-01T00:00:00+02:00` → `2025-05-31T22:00:00.000Z`). A value without one is a wall-clock time in `timeZone`
 * (an IANA name, e.g. the workflow's `getTimezone()`), and a date alone is the start of that day there. Undefined for
 * anything `isIsoDate` refuses.
 */
export function zonedIso(text: string, timeZone: string): string | undefined {
	if (!isIsoDate(text)) return undefined;
	const match = ISO_PARTS.exec(text);
	if (!match) return undefined;
	const [year, month, day, hour, minute, second] = match
		.slice(1, 7)
		.map((part) => Number(part ?? 0));
	const ms = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
	const wall = utcOf(year, month, day, hour, minute, second);
	if (match[8] === 'Z') return new Date(wall + ms).toISOString();
	if (match[9]) {
		const offset = (Number(match[10]) * 60 + Number(match[11])) * 60 * SECOND;
		return new Date(wall - (match[9] === '-' ? -offset : offset) + ms).toISOString();
	}
	return new Date(instantAt(wall, timeZone) + ms).toISOString();
}

/**
 * A date-time field's preSend, after the field's `checkDate`: the value n8n's routing put at `property` of the query
 * or body (the parameter as the user gave it) becomes `zonedIso` of it in the workflow's time zone. Reading it there
 * rather than through a `send.value` expression spares n8n one expression evaluation per item. Left empty, the member
 * is dropped, or sent as null with `emptyAsNull` (which clears the field on the record). A value that is not a date
 * (only reachable without the check) is left as typed, for the API to refuse.
 */
export function sendInWorkflowTimeZone(
	type: 'query' | 'body',
	property: string,
	emptyAsNull = false,
): PreSend {
	return async function (this, options) {
		const place = type === 'query' ? 'qs' : 'body';
		const members = options[place] as IDataObject | undefined;
		// Nothing to convert where the property is not sent.
		if (!members || typeof members !== 'object' || !(property in members)) return options;
		const raw = members[property];
		const sent = { ...members };
		if (raw === '' || raw === undefined || raw === null) {
			if (emptyAsNull) sent[property] = null;
			else delete sent[property];
		} else {
			const text = dateText(raw);
			if (text !== undefined) sent[property] = zonedIso(text, this.getTimezone()) ?? raw;
		}
		return { ...options, [place]: sent };
	};
}
