/**
 * helpers/output.ts, an API answer as n8n items: the record, trimmed by Simplify to its resource's fields; a Delete
 * as `{ deleted, id, message }`; and a JSON answer where a file was asked for refused, never saved as the file.
 */
import { SIMPLIFIED_FIELDS } from '../../../nodes/Stora/helpers/output';
import { locator, runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('output', () => {
	const fixture = useSandboxForNode();

	it('gives the whole record, or with Simplify only the fields its resource keeps', async () => {
		const [site] = await fixture.client.state('sites');
		const get = async (simplify: boolean) =>
			await runStora({
				credentials: fixture.credentials(),
				parameters: {
					resource: 'site',
					operation: 'get',
					siteId: locator(String(site.id)),
					simplify,
				},
			});
		const full = await get(false);
		expect(full.items[0].json).toEqual(site);
		const simplified = await get(true);
		expect(Object.keys(simplified.items[0].json).sort()).toEqual(
			SIMPLIFIED_FIELDS.site.filter((field) => field in site).sort(),
		);
		expect(Object.keys(simplified.items[0].json).length).toBeLessThan(Object.keys(site).length);
	});

	it('answers a Delete with deleted, the ID from the URL and Stora’s message', async () => {
		const task = (await fixture.client.state('tasks'))[0];
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: { resource: 'task', operation: 'delete', taskId: locator(String(task.id)) },
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: { deleted: true, id: task.id, message: expect.any(String) },
				pairedItem: expect.anything(),
			},
		]);
	});

	it('refuses a JSON answer to a download, naming what was expected', async () => {
		const invoice = (await fixture.client.state('invoices')).find(
			(record) => record.status === 'paid',
		)!;
		await fixture.client.fault({ method: 'GET', path: `/2025-09/invoices/${String(invoice.id)}` }, [
			{ status: 200, body: { invoice: { id: invoice.id }, meta: {} } },
		]);
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'invoice',
				operation: 'downloadPdf',
				invoiceId: locator(String(invoice.id)),
			},
		});
		expect(result.error?.message).toBe(
			'Stora answered the download with application/json instead of a file',
		);
		expect(String(result.error?.description)).toContain('Expected: application/pdf.');
		expect(result.items).toEqual([]);
	});
});
