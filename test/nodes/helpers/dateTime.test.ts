/**
 * `zonedIso` (helpers/dateTime.ts), which reads a date-time without an offset as a wall-clock time in the workflow's
 * time zone, against luxon over many zones, instants and clock changes, whatever the time zone of the process.
 *
 * Then how the node sends date-times in n8n. A value without an offset, as n8n's date picker gives
 * it, is a wall-clock time in the workflow's time zone, whatever the time zone of the n8n process; a value with `Z` or
 * an offset is that instant. Checked in n8n-core's real engine against the sandbox (what the sandbox received) for a
 * Get Many filter, two body dates, Order → Create and the Poll Trigger's filters, under two process time zones and
 * three workflow time zones.
 */
import fc from 'fast-check';
import { DateTime, Settings } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { zonedIso } from '../../../nodes/Stora/helpers/dateTime';
import { realEnv, setProcessZone, inProcessZone } from '../../helpers/processZone';
import { locator as byId, runStora } from '../../helpers/n8n';
import { PollHarness } from '../../helpers/poll';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

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
			fc.property(
				fc.constantFrom(...ZONES),
				fc.integer({ min: FROM, max: TO }),
				(zone, instant) => {
					const wall = DateTime.fromMillis(instant, { zone }).toFormat(WALL);
					expect({ zone, wall, sent: zonedIso(wall, zone) }).toEqual({
						zone,
						wall,
						sent: luxonIso(wall, zone),
					});
					const date = wall.slice(0, 10);
					expect({ zone, date, sent: zonedIso(date, zone) }).toEqual({
						zone,
						date,
						sent: luxonIso(date, zone),
					});
				},
			),
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
					const wall = DateTime.fromMillis(instant + offset * 60_000, { zone: 'UTC' }).toFormat(
						WALL,
					);
					const possible = DateTime.fromISO(wall, { zone }).getPossibleOffsets();
					if (possible.length > 1) kinds.doubled++;
					else if (DateTime.fromISO(wall, { zone }).toFormat(WALL) !== wall) kinds.skipped++;
					expect({ zone, wall, sent: zonedIso(wall, zone) }).toEqual({
						zone,
						wall,
						sent: luxonIso(wall, zone),
					});
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
					const local = DateTime.fromMillis(instant, { zone: 'UTC' })
						.plus({ minutes })
						.toFormat(WALL);
					const sign = minutes < 0 ? '-' : '+';
					const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
					const text = `${local}${sign}${hours}${colon}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
					const expected = new Date(instant).toISOString();
					expect({ text, sent: zonedIso(text, 'America/New_York') }).toEqual({
						text,
						sent: expected,
					});
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
		for (const text of [
			'',
			'next tuesday',
			'2030-02-30',
			'2030-06-01T24:00:00',
			'31/02/2027',
			'2030-06-01T00:00:00+02',
		]) {
			expect({ text, sent: zonedIso(text, 'UTC') }).toEqual({ text, sent: undefined });
		}
	});
});

const PROCESS_ZONES = ['UTC', 'America/New_York'];
const WORKFLOW_ZONES = ['UTC', 'America/New_York', 'Europe/London'] as const;
type WorkflowZone = (typeof WORKFLOW_ZONES)[number];

/**
 * What each value must be sent as, per workflow time zone. 1 June is summer time in New York (-04:00) and London
 * (+01:00), 15 January winter time (-05:00, +00:00). Values with `Z` or an offset are the same instant everywhere.
 */
const SENT: Array<{ value: string; sent: Record<WorkflowZone, string> }> = [
	{
		value: '2030-06-01T00:00:00', // n8n's date picker
		sent: {
			UTC: '2030-06-01T00:00:00.000Z',
			'America/New_York': '2030-06-01T04:00:00.000Z',
			'Europe/London': '2030-05-31T23:00:00.000Z',
		},
	},
	{
		value: '2030-06-01', // a date alone: midnight there
		sent: {
			UTC: '2030-06-01T00:00:00.000Z',
			'America/New_York': '2030-06-01T04:00:00.000Z',
			'Europe/London': '2030-05-31T23:00:00.000Z',
		},
	},
	{
		value: '2030-01-15T12:00:00',
		sent: {
			UTC: '2030-01-15T12:00:00.000Z',
			'America/New_York': '2030-01-15T17:00:00.000Z',
			'Europe/London': '2030-01-15T12:00:00.000Z',
		},
	},
	{
		value: '2030-06-01T00:00:00.000+02:00',
		sent: {
			UTC: '2030-05-31T22:00:00.000Z',
			'America/New_York': '2030-05-31T22:00:00.000Z',
			'Europe/London': '2030-05-31T22:00:00.000Z',
		},
	},
	{
		value: '2030-06-01T09:30:00Z',
		sent: {
			UTC: '2030-06-01T09:30:00.000Z',
			'America/New_York': '2030-06-01T09:30:00.000Z',
			'Europe/London': '2030-06-01T09:30:00.000Z',
		},
	},
];

/** Midnight of 1 June 2030 in the process's own time zone, to show the process zone really changed. */
const processMidnight = () => new Date(2030, 5, 1).toISOString();
const PROCESS_MIDNIGHT: Record<string, string> = {
	UTC: '2030-06-01T00:00:00.000Z',
	'America/New_York': '2030-06-01T04:00:00.000Z',
};

/** Every process time zone × workflow time zone. */
const COMBINATIONS = PROCESS_ZONES.flatMap((processZone) =>
	WORKFLOW_ZONES.map((workflowZone) => ({ processZone, workflowZone })),
);

describe('Date-times in the workflow time zone, in n8n against the sandbox', () => {
	const fixture = useSandboxForNode();
	const items = SENT.map(({ value }) => ({ at: value }));

	/** A run of the Stora node with `parameters` over `runItems` (each value of SENT by default), for `sentFor`. */
	const storaRun =
		(parameters: INodeParameters, runItems: IDataObject[] = items) =>
		async (timezone: WorkflowZone) =>
			await fixture.run(parameters, { timezone, items: runItems });

	/** In any order: n8n sends the requests of a node's items concurrently. */
	const sorted = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();

	/** The values the requests sent (read by `read`), for every combination, next to what they should have been. */
	async function sentFor(
		run: (workflowZone: WorkflowZone) => Promise<{ error?: unknown } | void>,
		read: (request: { query: Record<string, string>; body: unknown }) => unknown,
		expected: (workflowZone: WorkflowZone) => unknown[],
	) {
		const seen: IDataObject[] = [];
		const wanted: IDataObject[] = [];
		for (const { processZone, workflowZone } of COMBINATIONS) {
			await fixture.client.clearRequests();
			const { result, midnight } = await inProcessZone(processZone, async () => ({
				result: await run(workflowZone),
				midnight: processMidnight(),
			}));
			expect(result && result.error).toBeFalsy();
			const requests = await fixture.client.requests();
			seen.push({ processZone, midnight, workflowZone, sent: sorted(requests.map(read)) });
			wanted.push({
				processZone,
				midnight: PROCESS_MIDNIGHT[processZone],
				workflowZone,
				sent: sorted(expected(workflowZone)),
			});
		}
		expect(seen).toEqual(wanted);
	}

	it('takes the date objects expressions give ({{ $now }}, DateTime, Date) as the instant they are', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			timezone: 'America/New_York',
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: {
					createdAfter: "={{ DateTime.fromISO('2030-06-01T09:00:00', { zone: 'Asia/Tokyo' }) }}",
					createdBefore: '={{ new Date(Date.UTC(2030, 5, 2, 12)) }}',
					updatedAfter: '={{ $now.minus({ years: 100 }) }}',
				},
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await fixture.client.requests();
		expect(request.query.created_after).toBe('2030-06-01T00:00:00.000Z');
		expect(request.query.created_before).toBe('2030-06-02T12:00:00.000Z');
		expect(request.query.updated_after).toMatch(/^19\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
	});

	it('reads a Get Many filter (Created After, Updated Before) in the workflow time zone', async () => {
		await sentFor(
			// Created After per item by expression; Updated Before as the date picker stores it.
			storaRun({
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { createdAfter: '={{ $json.at }}', updatedBefore: '2030-01-15T12:00:00' },
			}),
			(request) => [request.query.created_after, request.query.updated_before],
			(zone) => SENT.map(({ sent }) => [sent[zone], SENT[2].sent[zone]]),
		);

		// What is not a date still fails naming the parameter, before any request.
		await fixture.client.clearRequests();
		const result = await runStora({
			credentials: fixture.credentials(),
			timezone: 'Europe/London',
			parameters: {
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { createdAfter: '2030-02-30T00:00:00' },
			},
		});
		expect(result.error?.message).toBe('Created After: "2030-02-30T00:00:00" is not a valid date');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('reads Task → Create Due At in the workflow time zone', async () => {
		await sentFor(
			storaRun({
				resource: 'task',
				operation: 'create',
				title: 'Call back',
				additionalFields: { dueAt: '={{ $json.at }}' },
			}),
			(request) => (request.body as IDataObject).due_at,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});

	it('reads Deal → Update Starts At in the workflow time zone, and still clears it when empty', async () => {
		const [deal] = await fixture.client.state('deals');
		await sentFor(
			storaRun(
				{
					resource: 'deal',
					operation: 'update',
					dealId: byId(deal.id),
					updateFields: { startsAt: '={{ $json.at }}' },
				},
				[...items, { at: '' }],
			),
			(request) => (request.body as IDataObject).starts_at,
			(zone) => [...SENT.map(({ sent }) => sent[zone]), null],
		);
	});

	it('reads Order → Create Starts At in the workflow time zone', async () => {
		const [site] = await fixture.client.state('sites');
		await sentFor(
			storaRun({
				resource: 'order',
				operation: 'create',
				orderSiteId: site.id,
				additionalFields: { startsAt: '={{ $json.at }}' },
			}),
			(request) => (request.body as IDataObject).starts_at,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});

	it("reads the Poll Trigger's date filter (Task Due After) in the workflow time zone", async () => {
		await sentFor(
			async (timezone) => {
				for (const { value } of SENT) {
					const parameters = {
						pollResource: 'task',
						event: 'created',
						filters: { dueAfter: value },
					};
					await new PollHarness(fixture.credentials(), parameters, undefined, timezone).poll(
						'manual',
					);
				}
			},
			(request) => request.query.due_after,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});
});
