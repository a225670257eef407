import { searchBilling } from '../../helpers/loadOptions';
import { locator as rl, runStora, tokenCredentials } from '../../helpers/n8n';
import { idOf, newestFirst, pdfText } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Invoice', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	describe('Invoice: Get Many', () => {
		it('seeds invoices of every status, type and collection status', async () => {
			const invoices = await client.state('invoices');
			expect(new Set(invoices.map((invoice) => invoice.status))).toEqual(
				new Set(['draft', 'deleted', 'open', 'paid', 'uncollectible', 'void']),
			);
			expect(new Set(invoices.map((invoice) => invoice.type))).toEqual(
				new Set(['subscription', 'ad_hoc', 'deposit']),
			);
			expect(new Set(invoices.map((invoice) => invoice.collection_status))).toEqual(
				new Set(['pending', 'overdue', 'collected', 'not_collected']),
			);
		});

		it('sends the status, type and collection status multi-selects, due window, sort and expand', async () => {
			const invoices = await client.state('invoices');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					returnAll: false,
					limit: 50,
					filters: {
						status: ['open', 'paid', 'uncollectible'],
						type: ['subscription', 'ad_hoc'],
						collectionStatus: ['overdue', 'collected', 'not_collected'],
						dueAfter: '2000-01-01T00:00:00.000Z',
						dueBefore: '2100-01-01T00:00:00.000Z',
					},
					options: {
						sortBy: 'due_date',
						sortDirection: 'ASC',
						expand: ['contact', 'subscription'],
					},
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', path: '/2025-09/invoices' });
			expect(requests[0].query).toEqual({
				limit: '50',
				status: 'open,paid,uncollectible',
				type: 'subscription,ad_hoc',
				collection_status: 'overdue,collected,not_collected',
				due_after: '2000-01-01T00:00:00.000Z',
				due_before: '2100-01-01T00:00:00.000Z',
				sort_by: 'due_date',
				sort_direction: 'ASC',
				expand: 'contact,subscription',
			});
			const expected = invoices
				.filter(
					(invoice) =>
						['open', 'paid', 'uncollectible'].includes(String(invoice.status)) &&
						['subscription', 'ad_hoc'].includes(String(invoice.type)) &&
						['overdue', 'collected', 'not_collected'].includes(String(invoice.collection_status)),
				)
				.sort((a, b) => Date.parse(String(a.due_date)) - Date.parse(String(b.due_date)));
			expect(expected.length).toBeGreaterThan(2);
			expect(result.items.map((item) => item.json.id)).toEqual(
				expected.map((invoice) => invoice.id),
			);
			const first = result.items[0].json;
			const contacts = await client.state('contacts');
			expect(first.contact).toEqual(
				contacts.find((contact) => contact.id === idOf(expected[0].contact)),
			);
			expect((first.subscription as StateRecord).billing_period).toBeDefined();
		});

		it('filters on contact, site, subscription and tenancy IDs and on created/updated windows', async () => {
			const invoices = await client.state('invoices');
			const [a, b] = [invoices[0], invoices[invoices.length - 1]];
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					returnAll: true,
					filters: {
						contactIds: `${idOf(a.contact)}, ${idOf(b.contact)}`,
						siteIds: [idOf(a.site), idOf(b.site)].join(','),
						subscriptionIds: [idOf(a.subscription), idOf(b.subscription)].join(','),
						tenancyIds: [idOf(a.tenancy), idOf(b.tenancy)].join(','),
						createdAfter: '2000-01-01T00:00:00.000Z',
						updatedBefore: '2100-01-01T00:00:00.000Z',
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.query).toMatchObject({
				contact_id: `${idOf(a.contact)},${idOf(b.contact)}`,
				site_id: `${idOf(a.site)},${idOf(b.site)}`,
				subscription_id: `${idOf(a.subscription)},${idOf(b.subscription)}`,
				tenancy_id: `${idOf(a.tenancy)},${idOf(b.tenancy)}`,
				created_after: '2000-01-01T00:00:00.000Z',
				updated_before: '2100-01-01T00:00:00.000Z',
			});
			const contacts = [idOf(a.contact), idOf(b.contact)];
			const expected = invoices
				.filter((invoice) => contacts.includes(idOf(invoice.contact)))
				.sort(newestFirst);
			expect(expected.length).toBeGreaterThanOrEqual(8);
			expect(result.items.map((item) => item.json.id)).toEqual(
				expected.map((invoice) => invoice.id),
			);
		});

		it('rejects a subscription ID in the tenancy filter before any request', async () => {
			const [invoice] = await client.state('invoices');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					filters: { tenancyIds: String(idOf(invoice.subscription)) },
				},
			});
			expect(result.error?.message).toBe(
				`Tenancy IDs: "${idOf(invoice.subscription)}" is not a valid ID`,
			);
			expect(await client.requests()).toEqual([]);
		});

		it('simplifies the invoices to their identifying fields', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'invoice', operation: 'getAll', limit: 3, simplify: true },
			});
			expect(result.items).toHaveLength(3);
			for (const item of result.items) {
				expect(Object.keys(item.json).sort()).toEqual(
					[
						'amount_due',
						'collection_status',
						'contact',
						'created_at',
						'due_date',
						'id',
						'number',
						'status',
						'total',
						'type',
					].sort(),
				);
			}
		});

		it('exports all invoices as one CSV file', async () => {
			const invoices = await client.state('invoices');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					returnAll: true,
					outputFormat: 'csv',
					binaryPropertyName: 'export',
				},
			});
			expect(result.error).toBeUndefined();
			const file = result.items[0].binary?.export;
			expect(file?.mimeType).toBe('text/csv');
			const rows = Buffer.from(file?.data as string, 'base64')
				.toString('utf8')
				.trim()
				.split(/\r?\n/);
			expect(rows).toHaveLength(invoices.length + 1);
			expect(rows[0].split(',')).toContain('number');
		});
	});

	describe('Invoice: Get and Download PDF', () => {
		it('gets an invoice with its site and tenancy expanded', async () => {
			const [invoice] = await client.state('invoices');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'get',
					invoiceId: rl(invoice.id),
					options: { expand: ['site', 'tenancy'] },
				},
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{
					method: 'GET',
					path: `/2025-09/invoices/${invoice.id}`,
					query: { expand: 'site,tenancy' },
				},
			]);
			const json = result.items[0].json;
			expect({ ...json, site: invoice.site, tenancy: invoice.tenancy }).toEqual(invoice);
			const sites = await client.state('sites');
			expect(json.site).toEqual(sites.find((site) => site.id === idOf(invoice.site)));
			expect((json.tenancy as StateRecord).id).toBe(idOf(invoice.tenancy));
		});

		it('downloads the invoice PDF as binary data named after the invoice number', async () => {
			const invoice = (await client.state('invoices')).find((record) => record.status === 'paid')!;
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'downloadPdf',
					invoiceId: rl(invoice.id),
					binaryPropertyName: 'invoicePdf',
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'GET', path: `/2025-09/invoices/${invoice.id}` });
			expect(requests[0].headers.accept).toBe('application/pdf');
			expect(result.items).toHaveLength(1);
			const file = result.items[0].binary?.invoicePdf;
			expect(file?.fileName).toBe(`${String(invoice.number)}.pdf`);
			expect(file?.mimeType).toBe('application/pdf');
			const text = pdfText(file?.data as string);
			expect(text.startsWith('%PDF')).toBe(true);
			expect(text).toContain(`Invoice ${String(invoice.number)}`);
			expect(result.items[0].json).toMatchObject({
				fileName: `${String(invoice.number)}.pdf`,
				mimeType: 'application/pdf',
			});
		});

		it('shows the API error when the invoice does not exist', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'invoice',
					operation: 'downloadPdf',
					invoiceId: rl('inv_doesnotexist'),
				},
			});
			expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
			expect((result.error as { httpCode?: string }).httpCode).toBe('404');
		});

		it('names the missing scope when the token cannot read invoices', async () => {
			const [invoice] = await client.state('invoices');
			const limited = await client.token(['public.order:read']);
			const result = await runStora({
				credentials: tokenCredentials(fixture.sandbox.url, limited),
				parameters: { resource: 'invoice', operation: 'get', invoiceId: rl(invoice.id) },
			});
			expect(result.error?.message).toContain('public.invoice:read');
			expect(result.error?.message).toMatch(/\[forbidden\]$/);
		});
	});

	describe('list search', () => {
		it('finds invoices, credit notes, subscriptions and categories by what their labels show', async () => {
			const [invoice] = await client.state('invoices');
			const invoices = await searchBilling(credentials(), 'searchInvoices', String(invoice.number));
			expect(invoices.results.map((result) => result.value)).toEqual([invoice.id]);
			const [note] = await client.state('credit_notes');
			expect(
				(await searchBilling(credentials(), 'searchCreditNotes', String(note.number))).results.map(
					(r) => r.value,
				),
			).toEqual([note.id]);
			const [subscription] = await client.state('subscriptions');
			expect(
				(await searchBilling(credentials(), 'searchSubscriptions', subscription.id)).results[0]
					.value,
			).toBe(subscription.id);
			const [category] = await client.state('product_categories');
			expect(
				(await searchBilling(credentials(), 'searchProductCategories', String(category.name)))
					.results,
			).toEqual([{ name: category.name, value: category.id, url: undefined }]);
		});
	});
});
