/**
 * Where Stora's docs are silent (cut-off parameter lists), the real API may honour a parameter the node sends, ignore
 * it, or reject it. The sandbox plays each (`accept`, `ignore`, `reject` for parameters the docs do not list) and, in
 * the same run, sends only the documented rate-limit headers. In every mode each list, filter and Return All case
 * must give the right records in the right order, or a clear error naming the parameter: never a silently wrong
 * answer. With `accept` (the sandbox honours everything) it must be the right answer.
 *
 * The account's plan allows 1 request per second, below the documented 10 the credential starts from: the budget
 * must learn it from `RateLimit-Limit` and `RateLimit-Reset` alone (nothing is preloaded), or the second request of a
 * case, sent as soon as the first is answered, meets a 429.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { runStora } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import type { StateRecord } from '../../sandbox/client';
import { recordFigures } from '../helpers/figures';

type Mode = 'accept' | 'ignore' | 'reject';

const refId = (value: unknown) =>
	value && typeof value === 'object' ? String((value as IDataObject).id) : value;
const byTime =
	(field: string, descending = true) =>
	(a: StateRecord, b: StateRecord) =>
		(descending ? -1 : 1) * (Date.parse(String(a[field])) - Date.parse(String(b[field])));

interface Case {
	name: string;
	collection: string;
	/** Built from the seeded records, so the case holds on any seed. */
	parameters: (records: StateRecord[]) => INodeParameters;
	/** The records the parameters ask for, in the order they ask for. */
	expected: (records: StateRecord[]) => StateRecord[];
}

const CASES: Case[] = [
	{
		name: 'Task → Get Many, status filter, limit 5',
		collection: 'tasks',
		parameters: () => ({
			resource: 'task',
			operation: 'getAll',
			limit: 5,
			filters: { status: ['open'] },
		}),
		expected: (tasks) =>
			tasks
				.filter((task) => task.status === 'open')
				.sort(byTime('created_at'))
				.slice(0, 5),
	},
	{
		name: 'Task → Return All, newest first by default',
		collection: 'tasks',
		parameters: () => ({ resource: 'task', operation: 'getAll', returnAll: true }),
		expected: (tasks) => [...tasks].sort(byTime('created_at')),
	},
	{
		name: 'Task → Return All, status filter, oldest first',
		collection: 'tasks',
		parameters: () => ({
			resource: 'task',
			operation: 'getAll',
			returnAll: true,
			filters: { status: ['completed'] },
			options: { sortBy: 'created_at', sortDirection: 'ASC' },
		}),
		expected: (tasks) =>
			tasks.filter((task) => task.status === 'completed').sort(byTime('created_at', false)),
	},
	{
		name: 'Deal → Return All, filtered by the first stage',
		collection: 'deals',
		parameters: (deals) => ({
			resource: 'deal',
			operation: 'getAll',
			returnAll: true,
			filters: { stageIds: [String(refId(deals[0].stage))] },
		}),
		expected: (deals) =>
			deals
				.filter((deal) => refId(deal.stage) === refId(deals[0].stage))
				.sort(byTime('created_at')),
	},
	{
		name: 'Note → Return All, filtered by the first note’s creator, sorted by update time',
		collection: 'notes',
		parameters: (notes) => ({
			resource: 'note',
			operation: 'getAll',
			returnAll: true,
			filters: { creatorIds: String(refId(notes[0].creator)) },
			options: { sortBy: 'updated_at', sortDirection: 'DESC' },
		}),
		expected: (notes) =>
			notes
				.filter((note) => refId(note.creator) === refId(notes[0].creator))
				.sort(byTime('updated_at')),
	},
	{
		name: 'Invoice → Return All, paid ones',
		collection: 'invoices',
		parameters: () => ({
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
			filters: { status: ['paid'] },
		}),
		expected: (invoices) =>
			invoices.filter((invoice) => invoice.status === 'paid').sort(byTime('created_at')),
	},
	{
		name: 'Contact → Get Many, limit 10, newest first',
		collection: 'contacts',
		parameters: () => ({ resource: 'contact', operation: 'getAll', limit: 10 }),
		expected: (contacts) => [...contacts].sort(byTime('created_at')).slice(0, 10),
	},
	{
		name: 'Unit → Return All, units of the first site',
		collection: 'units',
		parameters: (units) => ({
			resource: 'unit',
			operation: 'getAll',
			returnAll: true,
			filters: { siteIds: [String(refId(units[0].site))] },
		}),
		expected: (units) =>
			units.filter((unit) => refId(unit.site) === refId(units[0].site)).sort(byTime('created_at')),
	},
];

/** A clear error: it says Stora did not apply or may not support a parameter, and names it. */
const CLEAR_ERROR =
	/did not apply the (filter|sort) .+ \(\w+(\[\w+\])?\)|node parameter .+ \(\w+\) sent/;

const MODES: Mode[] = ['accept', 'ignore', 'reject'];
/** A plan below the documented limits in the window the headers announce first. */
const PLAN = { perSecond: 1, perMinute: 60 };
/** Per mode, the cases that passed by outcome, the requests they sent, the most one case sent, the 429s they met. */
const outcomes = Object.fromEntries(
	MODES.map((mode) => [mode, { right: 0, clearError: 0, requests: 0, mostInCase: 0, limited: 0 }]),
);

describe.each<Mode>(MODES)('unknown parameters: %s, documented headers only', (mode) => {
	const fixture = useSandboxForNode({
		unknownParams: mode,
		headers: 'documented',
		rateLimit: PLAN,
	});
	beforeEach(() => {
		// After the fixture's own beforeEach, which sizes the budget to the sandbox's limits: forgotten, so the node
		// starts from the credential's default (the documented 10/s and 60/min) and learns the plan from the headers.
		rateLimits.reset();
	});

	it.each(CASES.map((testCase) => [testCase.name, testCase] as const))(
		'%s',
		async (_name, testCase) => {
			const records = await fixture.client.state(testCase.collection);
			const result = await runStora({
				credentials: fixture.credentials(),
				parameters: testCase.parameters(records),
			});
			const requests = (await fixture.client.requests()).filter(
				(request) => !request.path.startsWith('/__sandbox'),
			);
			const limited = requests.filter((request) => request.status === 429).length;
			outcomes[mode].limited += limited;
			expect(limited).toBe(0);
			if (result.error) {
				expect(mode).not.toBe('accept');
				const text = `${result.error.message}\n${String((result.error as { description?: string }).description)}`;
				expect(text).toMatch(CLEAR_ERROR);
			} else {
				const expected = testCase.expected(records).map((record) => record.id);
				const got = result.items.map((item) => String(item.json.id));
				// Ties on the sort field may come in any order; the set and the order of distinct values must match.
				expect(new Set(got)).toEqual(new Set(expected));
				expect(got).toHaveLength(expected.length);
				const sortField = String(
					(testCase.parameters(records).options as IDataObject | undefined)?.sortBy ?? 'created_at',
				);
				const valueOf = (id: string) =>
					String(records.find((record) => record.id === id)?.[sortField]);
				expect(got.map(valueOf)).toEqual(expected.map(valueOf));
			}
			outcomes[mode][result.error ? 'clearError' : 'right']++;
			outcomes[mode].requests += requests.length;
			outcomes[mode].mostInCase = Math.max(outcomes[mode].mostInCase, requests.length);
		},
	);
});

it('adds up: every case of every mode right or clearly refused, and no 429 from a budget learned from the headers', () => {
	for (const mode of MODES) {
		const { right, clearError, limited } = outcomes[mode];
		// Only cases that passed are counted, so a failed one leaves the sum short.
		expect({ mode, cases: right + clearError, limited }).toEqual({
			mode,
			cases: CASES.length,
			limited: 0,
		});
	}
	// Cases sent more than the plan allows in a second (Return All where the list ignores or refuses a parameter):
	// without learning 1/s from the headers they would have met 429s.
	const mostInCase = Math.max(...MODES.map((mode) => outcomes[mode].mostInCase));
	expect(mostInCase).toBeGreaterThan(PLAN.perSecond);
	const perMode = MODES.map((mode) => {
		const { right, clearError } = outcomes[mode];
		return `${mode}: ${right} right answers${clearError ? `, ${clearError} clear errors naming the parameter` : ''}`;
	});
	const requests = MODES.reduce((sum, mode) => sum + outcomes[mode].requests, 0);
	const limited = MODES.reduce((sum, mode) => sum + outcomes[mode].limited, 0);
	recordFigures('reliability', 'sandboxModes', {
		cells: [
			`Lists where the API honours, ignores or rejects undocumented parameters, documented rate-limit headers only, under a plan of ${PLAN.perSecond} request per second that the budget learns from them`,
			'`test/nodes/sandboxModes.test.ts`',
			`${CASES.length} list cases × ${MODES.length} modes (${perMode.join('; ')}): the right records in the right order or a clear error, never a silently wrong answer; ${requests} requests (up to ${mostInCase} in one case), ${limited} answers 429`,
		],
		figures: {
			cases: CASES.length,
			modes: MODES.length,
			requests,
			mostInCase,
			limited,
			...Object.fromEntries(
				MODES.flatMap((mode) => [
					[`${mode}Right`, outcomes[mode].right],
					[`${mode}ClearErrors`, outcomes[mode].clearError],
				]),
			),
		},
	});
});
