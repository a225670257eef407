/**
 * `zonedIso` (helpers/dateTime.ts), which reads a date-time without an offset as a wall-clock time in the workflow's
 * time zone, against luxon over many zones, instants and clock changes, whatever the time zone of the process. How
 * the node sends such values in n8n is checked in workflowTimeZone.test.ts.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';

import { zonedIso } from '../../nodes/Stora/helpers/dateTime';
import { realEnv, setProcessZone } from '../helpers/processZone';

/** Zones with summer time, half- and quarter-hour offsets, clocks changing at midnight, and a day skipped (Apia). */
const ZONES = [
	'UTC',
	'Europe/London',
	'Europe/Dublin',
	'America/New_York',
	'America/Sao_Paulo',
	'America/Santiago',
	'America/St_Johns',
	'America/Havana',
	'Australia/Lord_Howe',
	'Australia/Sydney',
	'Asia/Kolkata',
	'Asia/Kathmandu',
	'Asia/Tehran',
	'Pacific/Chatham',
	'Pacific/Apia',
	'Pacific/Kiritimati',
	'Africa/Casablanca',
];

const WALL = "yyyy-MM-dd'T'HH:mm:ss.SSS";
const FROM = Date.UTC(1970, 0, 1);
const TO = Date.UTC(2100, 0, 1);

/**
 * The oracle: luxon's reading of a wall-clock time in `zone` (a skipped time moved forward by the jump), and where the
 * time happens twice, the first of the two. Luxon starts from the offset in force at `Settings.now`, which picks
 * between two readings by today's date, and is wrong where today's offset is a day away from that time's (Apia,
 * -11:00 in 2011, +13:00 today): so it starts from a day before the time.
 */
function luxonIso(text: string, zone: string): string {
	const now = Settings.now;
	const dayBefore = DateTime.fromISO(text, { zone: 'UTC' }).toMillis() - 86_400_000;
	Settings.now = () => dayBefore;
	try {
		const possible = DateTime.fromISO(text, { zone }).getPossibleOffsets();
		return new Date(Math.min(...possible.map((at) => at.toMillis()))).toISOString();
	} finally {
		Settings.now = now;
	}
}

const offsetAt = (instant: number, zone: string) => DateTime.fromMillis(instant, { zone }).offset;

/** Every instant from `from` to `to` at which `zone`'s offset changes, to the millisecond (luxon's data). */
function transitions(zone: string, from: number, to: number): number[] {
	const found: number[] = [];
	const step = 86_400_000;
	for (let at = from; at < to; at += step) {
		if (offsetAt(at, zone) === offsetAt(at + step, zone)) continue;
		let [low, high] = [at, at + step];
		while (high - low > 1) {
			const middle = Math.floor((low + high) / 2);
			if (offsetAt(middle, zone) === offsetAt(low, zone)) low = middle;
			else high = middle;
		}
		found.push(high);
	}
	return found;
}

describe('zonedIso (helpers/dateTime.ts) against luxon', () => {
	// The process's own time zone must not matter: an unusual one for this block.
	let before: string | undefined;
	beforeAll(() => {
		before = realEnv.TZ;
		setProcessZone('Pacific/Chatham');
	});
	afterAll(() => setProcessZone(before));

	it('reads any wall-clock time of any zone as luxon does (1970-2100)', () => {
		fc.assert(
			fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (zone, instant) => {
				const wall = DateTime.fromMillis(instant, { zone }).toFormat(WALL);
				expect({ zone, wall, sent: zonedIso(wall, zone) }).toEqual({ zone, wall, sent: luxonIso(wall, zone) });
				const date = wall.slice(0, 10);
				expect({ zone, date, sent: zonedIso(date, zone) }).toEqual({ zone, date, sent: luxonIso(date, zone) });
			}),
			{ seed: 20260522, numRuns: 5000 },
		);
	});

	it('reads times around every clock change of 2010-2030 as luxon does: skipped ones moved forward, doubled ones the first', () => {
		const changes = ZONES.flatMap((zone) =>
			transitions(zone, Date.UTC(2010, 0, 1), Date.UTC(2030, 0, 1)).map((at) => ({ zone, at })),
		);
		expect(changes.length).toBeGreaterThan(300);
		const kinds = { skipped: 0, doubled: 0 };
		fc.assert(
			fc.property(
				fc.constantFrom(...changes),
				// Up to 3 hours either side of the change, in the wall-clock time of either side.
				fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }),
				fc.boolean(),
				({ zone, at }, delta, earlierSide) => {
					const instant = at + delta;
					const offset = offsetAt(earlierSide ? at - 1 : at, zone);
					const wall = DateTime.fromMillis(instant + offset * 60_000, { zone: 'UTC' }).toFormat(WALL);
					const possible = DateTime.fromISO(wall, { zone }).getPossibleOffsets();
					if (possible.length > 1) kinds.doubled++;
					else if (DateTime.fromISO(wall, { zone }).toFormat(WALL) !== wall) kinds.skipped++;
					expect({ zone, wall, sent: zonedIso(wall, zone) }).toEqual({ zone, wall, sent: luxonIso(wall, zone) });
				},
			),
			{ seed: 20260523, numRuns: 5000 },
		);
		expect(kinds.skipped).toBeGreaterThan(300);
		expect(kinds.doubled).toBeGreaterThan(300);
	});

	it('sends a value with Z or an offset as that instant, in UTC', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: FROM, max: TO }),
				fc.integer({ min: -14 * 60, max: 14 * 60 }),
				fc.constantFrom(':', ''),
				(instant, minutes, colon) => {
					const local = DateTime.fromMillis(instant, { zone: 'UTC' }).plus({ minutes }).toFormat(WALL);
					const sign = minutes < 0 ? '-' : '+';
					const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
					const text = `${local}${sign}${hours}${colon}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
					const expected = new Date(instant).toISOString();
					expect({ text, sent: zonedIso(text, 'America/New_York') }).toEqual({ text, sent: expected });
					expect(DateTime.fromISO(text, { setZone: true }).toMillis()).toBe(instant);
				},
			),
			{ seed: 20260524, numRuns: 2000 },
		);
		expect(zonedIso('2030-06-01 09:30:00Z', 'Asia/Kolkata')).toBe('2030-06-01T09:30:00.000Z');
	});

	it('follows the documented rule at the edges', () => {
		expect({
			londonSkipped: zonedIso('2025-03-30T01:30:00', 'Europe/London'),
			londonDoubled: zonedIso('2025-10-26T01:30:00', 'Europe/London'),
			newYorkSkipped: zonedIso('2025-03-09T02:30:00', 'America/New_York'),
			newYorkDoubled: zonedIso('2025-11-02T01:30:00', 'America/New_York'),
			saoPauloDayStartsAtOne: zonedIso('2018-11-04', 'America/Sao_Paulo'),
			apiaDaySkipped: zonedIso('2011-12-30', 'Pacific/Apia'),
			lordHoweHalfHour: zonedIso('2025-10-05T02:15:00', 'Australia/Lord_Howe'),
			digitsPastTheMillisecond: zonedIso('2025-06-01T12:00:00.123999', 'Asia/Kathmandu'),
		}).toEqual({
			londonSkipped: '2025-03-30T01:30:00.000Z', // 02:30 BST
			londonDoubled: '2025-10-26T00:30:00.000Z', // 01:30 BST, the first
			newYorkSkipped: '2025-03-09T07:30:00.000Z', // 03:30 EDT
			newYorkDoubled: '2025-11-02T05:30:00.000Z', // 01:30 EDT, the first
			saoPauloDayStartsAtOne: '2018-11-04T03:00:00.000Z', // 01:00 -02:00, the first moment of that day
			apiaDaySkipped: '2011-12-30T10:00:00.000Z', // 31 December 00:00 +14:00
			lordHoweHalfHour: '2025-10-04T15:45:00.000Z', // 02:45 +11:00
			digitsPastTheMillisecond: '2025-06-01T06:15:00.123Z',
		});
	});

	it('gives nothing for what is not a date', () => {
		for (const text of ['', 'next tuesday', '2030-02-30', '2030-06-01T24:00:00', '31/02/2027', '2030-06-01T00:00:00+02']) {
			expect({ text, sent: zonedIso(text, 'UTC') }).toEqual({ text, sent: undefined });
		}
	});
});
