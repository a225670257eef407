/**
 * Date-times in the workflow's time zone (helpers/dateTime.ts). A value without an offset, as n8n's date picker gives
 * it, is a wall-clock time in the workflow's time zone, whatever the time zone of the n8n process; a value with `Z` or
 * an offset is that instant. Checked in n8n-core's real engine against the sandbox (what the sandbox received) for a
 * Get Many filter, two body dates, Order → Create and the Poll Trigger's filters, under two process time zones and
 * three workflow time zones. `zonedIso` itself is checked against luxon in zonedIso.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { locator as byId, runStora } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { inProcessZone } from '../helpers/processZone';
import { useSandboxForNode } from '../helpers/sandboxFixture';

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
		sent: { UTC: '2030-06-01T00:00:00.000Z', 'America/New_York': '2030-06-01T04:00:00.000Z', 'Europe/London': '2030-05-31T23:00:00.000Z' },
	},
	{
		value: '2030-06-01', // a date alone: midnight there
		sent: { UTC: '2030-06-01T00:00:00.000Z', 'America/New_York': '2030-06-01T04:00:00.000Z', 'Europe/London': '2030-05-31T23:00:00.000Z' },
	},
	{
		value: '2030-01-15T12:00:00',
		sent: { UTC: '2030-01-15T12:00:00.000Z', 'America/New_York': '2030-01-15T17:00:00.000Z', 'Europe/London': '2030-01-15T12:00:00.000Z' },
	},
	{
		value: '2030-06-01T00:00:00.000+02:00',
		sent: { UTC: '2030-05-31T22:00:00.000Z', 'America/New_York': '2030-05-31T22:00:00.000Z', 'Europe/London': '2030-05-31T22:00:00.000Z' },
	},
	{
		value: '2030-06-01T09:30:00Z',
		sent: { UTC: '2030-06-01T09:30:00.000Z', 'America/New_York': '2030-06-01T09:30:00.000Z', 'Europe/London': '2030-06-01T09:30:00.000Z' },
	},
];

/** Midnight of 1 June 2030 in the process's own time zone, to show the process zone really changed. */
const processMidnight = () => new Date(2030, 5, 1).toISOString();
const PROCESS_MIDNIGHT: Record<string, string> = { UTC: '2030-06-01T00:00:00.000Z', 'America/New_York': '2030-06-01T04:00:00.000Z' };

/** Every process time zone × workflow time zone. */
const COMBINATIONS = PROCESS_ZONES.flatMap((processZone) => WORKFLOW_ZONES.map((workflowZone) => ({ processZone, workflowZone })));

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
			wanted.push({ processZone, midnight: PROCESS_MIDNIGHT[processZone], workflowZone, sent: sorted(expected(workflowZone)) });
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
					createdBefore: "={{ new Date(Date.UTC(2030, 5, 2, 12)) }}",
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
			parameters: { resource: 'contact', operation: 'getAll', limit: 1, filters: { createdAfter: '2030-02-30T00:00:00' } },
		});
		expect(result.error?.message).toBe('Created After: "2030-02-30T00:00:00" is not a valid date');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('reads Task → Create Due At in the workflow time zone', async () => {
		await sentFor(
			storaRun({ resource: 'task', operation: 'create', title: 'Call back', additionalFields: { dueAt: '={{ $json.at }}' } }),
			(request) => (request.body as IDataObject).due_at,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});

	it('reads Deal → Update Starts At in the workflow time zone, and still clears it when empty', async () => {
		const [deal] = await fixture.client.state('deals');
		await sentFor(
			storaRun({ resource: 'deal', operation: 'update', dealId: byId(deal.id), updateFields: { startsAt: '={{ $json.at }}' } }, [
				...items,
				{ at: '' },
			]),
			(request) => (request.body as IDataObject).starts_at,
			(zone) => [...SENT.map(({ sent }) => sent[zone]), null],
		);
	});

	it('reads Order → Create Starts At in the workflow time zone', async () => {
		const [site] = await fixture.client.state('sites');
		await sentFor(
			storaRun({ resource: 'order', operation: 'create', orderSiteId: site.id, additionalFields: { startsAt: '={{ $json.at }}' } }),
			(request) => (request.body as IDataObject).starts_at,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});

	it("reads the Poll Trigger's date filter (Task Due After) in the workflow time zone", async () => {
		await sentFor(
			async (timezone) => {
				for (const { value } of SENT) {
					const parameters = { pollResource: 'task', event: 'created', filters: { dueAfter: value } };
					await new PollHarness(fixture.credentials(), parameters, undefined, timezone).poll('manual');
				}
			},
			(request) => request.query.due_after,
			(zone) => SENT.map(({ sent }) => sent[zone]),
		);
	});
});
