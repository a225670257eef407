/**
 * Many items, one account: the shared rate-limit budget in real n8n (every item of a node at once), and deletes whose
 * answer was lost. The figures each case measured are printed, for the README's reliability section.
 */
import { rateLimits } from '../../nodes/Stora/transport/rateLimit';
import { insertContacts, updateContacts } from '../helpers/contactUpdates';
import { runStora, locator, type CredentialStore } from '../helpers/n8n';
import { printFigure } from '../helpers/figures';
import { useSandbox } from '../helpers/sandboxFixture';
import type { SandboxClient } from '../sandbox/client';

jest.setTimeout(300_000);

async function bulkUpdate(client: SandboxClient, credentials: CredentialStore, count: number) {
	const contacts = await insertContacts(client, count, 'bulk');
	return { contacts, ...(await updateContacts(client, credentials, contacts)) };
}

describe('many items under the documented rate-limit shape, scaled to 10/s and 600/min', () => {
	const fixture = useSandbox({ rateLimit: { perSecond: 10, perMinute: 600 } });

	it('1,000 Contact → Update items: all applied, no 429 reaches the user, within 10 % of the floor', async () => {
		// The node starts from the documented 10/s and 60/min and learns the plan's minute limit from the answers.
		rateLimits.reset();
		const count = 1000;
		const { contacts, result, seconds, requests, state } = await bulkUpdate(fixture.client, fixture.credentials(), count);
		const floor = count / 10 - 1; // 10 go in the first second
		const limited = requests.filter((request) => request.status === 429).length;
		printFigure(
			`${count} updates at 10/s,600/min in ${seconds.toFixed(1)} s (floor ${floor} s, ratio ${(seconds / floor).toFixed(3)}); ` +
				`${requests.length} PATCHes, ${limited} answered 429 and retried, 0 reached the user`,
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(count);
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		expect(seconds).toBeLessThanOrEqual(floor * 1.1);
	});
});

describe('the reported failure: 80 updates at 10/s and 60/min, documented headers only', () => {
	const fixture = useSandbox({ rateLimit: 'default', headers: 'documented' });

	it('applies all 80 and waits for the next minute instead of failing with too_many_requests', async () => {
		rateLimits.reset();
		const { contacts, result, seconds, requests, state } = await bulkUpdate(fixture.client, fixture.credentials(), 80);
		const limited = requests.filter((request) => request.status === 429).length;
		printFigure(`80 updates at 10/s,60/min (documented headers) in ${seconds.toFixed(1)} s; ${limited} answered 429 and retried`);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(80);
		for (const contact of contacts) expect(state.get(contact.id)?.use_case).toBe('travelling');
		// 60 fit in the first minute; the rest wait for the next one rather than racing into 429s.
		expect(requests.filter((request) => request.status === 200)).toHaveLength(80);
	});
});

describe('deletes are idempotent for the user', () => {
	const fixture = useSandbox();

	it('counts a 404 on the retry of a DELETE whose first answer was lost as deleted, and says so', async () => {
		const [task] = await fixture.client.state('tasks');
		await fixture.client.fault({ method: 'DELETE', path: `/2025-09/tasks/${task.id}` }, [{ reset_after: true }]);
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'delete', taskId: locator(task.id) },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ deleted: true, id: task.id });
		// What is known: the record is gone; not who removed it.
		expect(String(result.items[0].json.message)).toMatch(/^The record is gone: .*earlier attempt was lost.*404/);
		expect(String(result.items[0].json.message)).not.toMatch(/first attempt deleted it/);
		const deletes = (await fixture.client.requests()).filter((request) => request.method === 'DELETE');
		expect(deletes.map((request) => request.status)).toEqual([200, 404]);
		expect((await fixture.client.state('tasks')).some((record) => record.id === task.id)).toBe(false);
	});

	it('still fails on a first DELETE that answers 404', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'delete', taskId: locator('task_doesNotExist1') },
		});
		expect(result.error?.message).toMatch(/not found/i);
		expect((await fixture.client.requests()).map((request) => request.status)).toEqual([404]);
	});
});
