/**
 * The fault matrix: every kind of fault the network or the API can throw at a request, against every kind of request
 * the package makes, over real HTTP through the sandbox's fault queue (the first matching request gets the fault).
 * Each cell must recover (the operation's effect happens exactly once) or fail with an error that names the
 * operation; never a duplicate write, a lost record or an unhandled exception. After every cell the sandbox's state
 * is compared with the state before it: a recovered cell changed exactly what its operation changes, a failed one
 * nothing at all (the fault replaced the answer, so the API never processed the request). The credential test,
 * which n8n runs itself, has its column in the end-to-end suite.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { loadOptionsContext } from '../helpers/loadOptions';
import { locator, runStora } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { TriggerHarness } from '../helpers/trigger';
import type { SandboxClient, StateRecord } from '../../sandbox/client';
import { recordFigures } from '../helpers/figures';
import { faultMatrix } from '../helpers/faults';

jest.setTimeout(60_000);

/** A per-attempt timeout short enough for the suite; the delayed request is still processed by the sandbox later. */
const TIMEOUT_MS = 1000;

const FAULTS = faultMatrix(TIMEOUT_MS);
/** Each attempt's timeout, set as a user sets it: the node's Settings → Request Options → Timeout. */
const WITH_TIMEOUT = { requestOptions: { timeout: TIMEOUT_MS } };

/** Faults after which the request may safely be repeated, so the node must recover. The others may also recover. */
const RECOVERABLE = new Set([
	'429 with Retry-After',
	'429 without Retry-After',
	'500',
	'502 HTML page',
	'reset before the API',
	'reset after the API processed it',
	'timeout',
]);

interface Outcome {
	items?: INodeExecutionData[];
	error?: { message?: string; description?: string | null };
}

/** What the operation of a cell does to its collection when it succeeds: records added, removed, changed. */
interface Effect {
	added?: number;
	removed?: string[];
	changed?: string[];
}

interface Cell {
	/** The request the fault hits. */
	match: { method: string; path: string };
	/** The collection the operation reads or writes, and what it does to it when it succeeds (a read: nothing). */
	collection: string;
	effect: Effect;
	run: () => Promise<Outcome>;
	/** Throws when the operation's effect is not there exactly once (or the output is not what the data says). */
	verify: (outcome: Outcome) => Promise<void>;
}

describe('fault matrix', () => {
	// Documented rate-limit headers only, as in every reliability figure (the sandbox here has no limits; the 429
	// faults carry what the cell says).
	const fixture = useSandboxForNode({ allowHttpWebhooks: true, headers: 'documented' });
	const client = (): SandboxClient => fixture.client;
	const credentials = () => fixture.credentials();
	const stateOf = async (collection: string) => await client().state(collection);
	/** Cells that passed, by outcome; the faults behind the clear errors; duplicate writes and lost records seen. */
	const counts = { recovered: 0, clearErrors: 0, duplicateWrites: 0, lostRecords: 0 };
	const failingFaults = new Set<string>();

	/**
	 * Compares a collection after a cell with before it: records added beyond `effect.added` are duplicate writes,
	 * records gone that `effect.removed` does not name are lost, and no record may change but those `effect.changed`
	 * names. Counts what it finds, then asserts there is none.
	 */
	function expectOnly(effect: Effect, before: StateRecord[], after: StateRecord[]) {
		const was = new Map(before.map((record) => [record.id, JSON.stringify(record)]));
		const is = new Map(after.map((record) => [record.id, JSON.stringify(record)]));
		const added = [...is.keys()].filter((id) => !was.has(id));
		const removed = [...was.keys()].filter((id) => !is.has(id));
		const changed = [...is.keys()].filter((id) => was.has(id) && was.get(id) !== is.get(id));
		counts.duplicateWrites += Math.max(0, added.length - (effect.added ?? 0));
		counts.lostRecords += removed.filter((id) => !effect.removed?.includes(id)).length;
		expect({
			added: added.length,
			removed,
			unexpectedlyChanged: changed.filter((id) => !effect.changed?.includes(id)),
		}).toEqual({
			added: effect.added ?? 0,
			removed: effect.removed ?? [],
			unexpectedlyChanged: [],
		});
	}

	/** Waits until every request the sandbox received has been answered (a delayed one is processed late). */
	async function settled() {
		for (let polls = 0; polls < 200; polls++) {
			if (
				(await client().requests()).every(
					(request) => request.status !== null || request.fault === 'reset',
				)
			)
				return;
			await sleep(50);
		}
		throw new Error('The sandbox still had requests in progress');
	}

	const cells: Record<string, () => Promise<Cell>> = {
		get: async () => {
			const [site] = await stateOf('sites');
			return {
				match: { method: 'GET', path: `/2025-09/sites/${site.id}` },
				collection: 'sites',
				effect: {},
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'site',
							operation: 'get',
							siteId: locator(site.id),
						},
					}),
				verify: async ({ items }) => expect(items?.map((item) => item.json.id)).toEqual([site.id]),
			};
		},
		'list (Return All)': async () => {
			const contacts = await stateOf('contacts');
			return {
				match: { method: 'GET', path: '/2025-09/contacts' },
				collection: 'contacts',
				effect: {},
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'contact',
							operation: 'getAll',
							returnAll: true,
						},
					}),
				verify: async ({ items }) => {
					const ids = items?.map((item) => String(item.json.id)) ?? [];
					expect(ids).toHaveLength(contacts.length);
					expect(new Set(ids)).toEqual(new Set(contacts.map((contact) => contact.id)));
				},
			};
		},
		create: async () => {
			const before = (await stateOf('tasks')).length;
			return {
				match: { method: 'POST', path: '/2025-09/tasks' },
				collection: 'tasks',
				effect: { added: 1 },
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'task',
							operation: 'create',
							title: 'Fault matrix',
							additionalFields: {},
						},
					}),
				verify: async ({ items }) => {
					const created = (await stateOf('tasks')).filter((task) => task.title === 'Fault matrix');
					expect(created).toHaveLength(1);
					expect((await stateOf('tasks')).length).toBe(before + 1);
					expect(items?.map((item) => item.json.id)).toEqual([created[0].id]);
				},
			};
		},
		update: async () => {
			const [contact] = await stateOf('contacts');
			return {
				match: { method: 'PATCH', path: `/2025-09/contacts/${contact.id}` },
				collection: 'contacts',
				effect: { changed: [contact.id] },
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'contact',
							operation: 'update',
							contactId: locator(contact.id),
							updateFields: { email: 'fault.matrix@example.com' },
						},
					}),
				verify: async ({ items }) => {
					expect(
						(await stateOf('contacts')).find((record) => record.id === contact.id)?.email,
					).toBe('fault.matrix@example.com');
					expect(items?.map((item) => item.json.email)).toEqual(['fault.matrix@example.com']);
				},
			};
		},
		delete: async () => {
			const tasks = await stateOf('tasks');
			const [task] = tasks;
			return {
				match: { method: 'DELETE', path: `/2025-09/tasks/${task.id}` },
				collection: 'tasks',
				effect: { removed: [task.id] },
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'task',
							operation: 'delete',
							taskId: locator(task.id),
						},
					}),
				verify: async ({ items }) => {
					const after = await stateOf('tasks');
					expect(after.some((record) => record.id === task.id)).toBe(false);
					expect(after).toHaveLength(tasks.length - 1);
					expect(items?.map((item) => item.json)).toEqual([
						expect.objectContaining({ deleted: true, id: task.id }),
					]);
				},
			};
		},
		'action (Deal → Win)': async () => {
			const deal = (await stateOf('deals')).find(
				(record) => record.status === 'open',
			) as StateRecord;
			return {
				match: { method: 'POST', path: `/2025-09/deals/${deal.id}/win` },
				collection: 'deals',
				effect: { changed: [deal.id] },
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'deal',
							operation: 'win',
							dealId: locator(deal.id),
						},
					}),
				verify: async ({ items }) => {
					expect((await stateOf('deals')).find((record) => record.id === deal.id)?.status).toBe(
						'won',
					);
					expect(items?.map((item) => [item.json.id, item.json.status])).toEqual([
						[deal.id, 'won'],
					]);
				},
			};
		},
		'download (Invoice PDF)': async () => {
			const invoice = (await stateOf('invoices')).find(
				(record) => record.status === 'paid',
			) as StateRecord;
			return {
				match: { method: 'GET', path: `/2025-09/invoices/${invoice.id}` },
				collection: 'invoices',
				effect: {},
				run: async () =>
					await runStora({
						credentials: credentials(),
						parameters: {
							...WITH_TIMEOUT,
							resource: 'invoice',
							operation: 'downloadPdf',
							invoiceId: locator(invoice.id),
						},
					}),
				verify: async ({ items }) => {
					const file = items?.[0]?.binary?.data;
					expect(file?.mimeType).toBe('application/pdf');
					expect(
						Buffer.from(file?.data ?? '', 'base64')
							.subarray(0, 5)
							.toString(),
					).toBe('%PDF-');
				},
			};
		},
		'list search (Contact)': async () => {
			const contacts = await stateOf('contacts');
			return {
				match: { method: 'GET', path: '/2025-09/contacts' },
				collection: 'contacts',
				effect: {},
				run: async () => {
					const context = loadOptionsContext(credentials(), {
						resource: 'contact',
						operation: 'get',
					});
					try {
						const result = await new Stora().methods.listSearch.searchContacts.call(context);
						return { items: result.results.map((entry) => ({ json: { id: entry.value } })) };
					} catch (error) {
						return { error: error as Outcome['error'] };
					}
				},
				verify: async ({ items }) => expect(items?.length).toBe(Math.min(100, contacts.length)),
			};
		},
		'trigger registration': async () => {
			const before = (await stateOf('webhook_endpoints')).length;
			const harness = await new TriggerHarness(credentials(), {
				events: ['contact.created'],
			}).start();
			return {
				match: { method: 'POST', path: '/2025-09/webhook_endpoints' },
				collection: 'webhook_endpoints',
				effect: { added: 1 },
				run: async () => {
					try {
						await harness.activate();
						const registered = harness.registration('production');
						return { items: [{ json: { endpointId: registered?.endpointId } }] };
					} catch (error) {
						return { error: error as Outcome['error'] };
					} finally {
						await harness.close();
					}
				},
				verify: async ({ items }) => {
					const endpoints = await stateOf('webhook_endpoints');
					expect(endpoints).toHaveLength(before + 1);
					expect(endpoints.map((endpoint) => endpoint.id)).toContain(items?.[0].json.endpointId);
				},
			};
		},
	};

	describe.each(Object.keys(cells))('%s', (kind) => {
		it.each(Object.keys(FAULTS))('%s', async (faultName) => {
			const cell = await cells[kind]();
			const before = await stateOf(cell.collection);
			await client().fault(cell.match, [FAULTS[faultName]]);
			const outcome = await cell.run();
			await settled();
			const faulted = (await client().requests()).filter(
				(request) => request.method === cell.match.method && request.path === cell.match.path,
			);
			expect(faulted.length).toBeGreaterThanOrEqual(1);
			const after = await stateOf(cell.collection);

			if (RECOVERABLE.has(faultName) || outcome.error === undefined) {
				expect(outcome.error).toBeUndefined();
				await cell.verify(outcome);
				// Exactly the operation's effect: nothing written twice, nothing else lost or changed.
				expectOnly(cell.effect, before, after);
				counts.recovered++;
				return;
			}
			// An answer that is not what was asked for, and no way to know it is safe to repeat: a clear error that
			// names the operation.
			expect(outcome.error?.message).toMatch(
				/not JSON|empty body|instead of a file|no ID or signing secret/,
			);
			expect(String(outcome.error?.description)).toMatch(/Operation: /);
			// The fault took the place of the API's answer: the API never processed the request, so nothing changed
			// (a refused update leaves its record as it was, a refused create adds none, a refused delete removes none).
			expectOnly({}, before, after);
			counts.clearErrors++;
			failingFaults.add(faultName);
		});
	});

	it('adds up: every cell recovered or failed clearly, with no duplicate write and no lost record', () => {
		const faults = Object.keys(FAULTS).length;
		const kinds = Object.keys(cells).length;
		// Only cells that passed are counted above, so a cell that failed leaves the sum short.
		expect(counts.recovered + counts.clearErrors).toBe(faults * kinds);
		expect(counts).toMatchObject({ duplicateWrites: 0, lostRecords: 0 });
		// The faults that must recover did, in every request kind.
		expect([...failingFaults].filter((fault) => RECOVERABLE.has(fault))).toEqual([]);
		recordFigures('reliability', 'faultMatrix', {
			cells: [
				`Fault matrix: ${faults} faults (${Object.keys(FAULTS).join(', ')}) × ${kinds} request kinds (${Object.keys(cells).join(', ')})`,
				'`test/nodes/faultMatrix.test.ts`',
				`${faults * kinds} cells: ${counts.recovered} recover with their effect exactly once, ${counts.clearErrors} (${[...failingFaults].join(', ')}) fail with an error naming the operation and leave the records as they were; ${counts.duplicateWrites} duplicate writes, ${counts.lostRecords} lost records`,
			],
			figures: { faults, kinds, cells: faults * kinds, ...counts },
		});
	});
});
