import type { INodeParameters } from 'n8n-workflow';

import { searchBilling } from '../../helpers/loadOptions';
import { locator as rl, runStora } from '../../helpers/n8n';
import { emptyDraftOrder, idOf, newestFirst, recordById } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Order', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	describe('Get Many', () => {
		it('sends every filter, the metadata filter, expand and sort, and returns the matching orders', async () => {
			const orders = await client.state('orders');
			const matches = (order: StateRecord) =>
				['draft', 'finalized', 'completed'].includes(String(order.status)) &&
				['storefront', 'unspecified'].includes(String(order.source)) &&
				['monthly', 'weekly', 'yearly'].includes(String(order.billing_period)) &&
				order.starts_at !== null &&
				(order.metadata as Record<string, unknown>).campaign === 'spring-2025';
			const site = { id: idOf(orders.find(matches)?.site) as string };
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'getAll',
					returnAll: false,
					limit: 100,
					filters: {
						status: ['draft', 'finalized', 'completed'],
						source: ['storefront', 'unspecified'],
						billingPeriod: ['monthly', 'weekly', 'yearly'],
						siteIds: ` ${site.id} `,
						createdAfter: '2000-01-01T00:00:00.000Z',
						updatedBefore: '2100-01-01T00:00:00.000Z',
						startsAfter: '2000-01-01T00:00:00.000Z',
						metadata: { entry: [{ key: 'campaign', value: 'spring-2025' }] },
					},
					options: { sortBy: 'updated_at', sortDirection: 'ASC', expand: ['site'] },
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0].method).toBe('GET');
			expect(requests[0].path).toBe('/2025-09/orders');
			expect(requests[0].query).toEqual({
				limit: '100',
				status: 'draft,finalized,completed',
				source: 'storefront,unspecified',
				billing_period: 'monthly,weekly,yearly',
				site_id: site.id,
				created_after: '2000-01-01T00:00:00.000Z',
				updated_before: '2100-01-01T00:00:00.000Z',
				starts_after: '2000-01-01T00:00:00.000Z',
				'metadata[campaign]': 'spring-2025',
				sort_by: 'updated_at',
				sort_direction: 'ASC',
				expand: 'site',
			});
			const expected = orders
				.filter((order) => matches(order) && idOf(order.site) === site.id)
				.sort((a, b) => Date.parse(String(a.updated_at)) - Date.parse(String(b.updated_at)));
			expect(expected.length).toBeGreaterThan(0);
			expect(result.items.map((item) => item.json.id)).toEqual(expected.map((order) => order.id));
			// `expand=site` returned the whole site record.
			expect(result.items[0].json.site).toEqual(recordById(await client.state('sites'), site.id));
		});

		it('filters on contacts and returns every order across pages with Return All, keeping the filters', async () => {
			const orders = await client.state('orders');
			const matching = orders.filter((order) =>
				['draft', 'abandoned', 'completed'].includes(String(order.status)),
			);
			expect(matching.length).toBeGreaterThan(200);
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'getAll',
					returnAll: true,
					filters: { status: ['draft', 'abandoned', 'completed'] },
					options: { expand: ['contact'] },
				},
			});
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.id)).toEqual(
				[...matching].sort(newestFirst).map((order) => order.id),
			);
			const requests = await client.requests();
			expect(requests.length).toBeGreaterThanOrEqual(3);
			for (const request of requests) {
				expect(request.query).toMatchObject({
					status: 'draft,abandoned,completed',
					expand: 'contact',
					limit: '100',
				});
			}

			const contact = idOf(matching.find((order) => order.contact)?.contact) as string;
			await client.clearRequests();
			const byContact = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'getAll',
					returnAll: true,
					filters: { contactIds: contact },
				},
			});
			expect((await client.requests())[0].query).toMatchObject({ contact_id: contact });
			expect(byContact.items.map((item) => item.json.id).sort()).toEqual(
				orders
					.filter((order) => idOf(order.contact) === contact)
					.map((order) => order.id)
					.sort(),
			);
		});

		it('rejects an ID of the wrong kind in the contact filter before any request', async () => {
			const [site] = await client.state('sites');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'getAll',
					filters: { contactIds: `con_abc, ${site.id}` },
				},
			});
			expect(result.error?.message).toBe(`Contact IDs: "${site.id}" is not a valid ID`);
			expect(await client.requests()).toEqual([]);
		});

		it('exports the orders as a CSV file', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'getAll',
					limit: 5,
					outputFormat: 'csv',
					filters: { status: ['draft'] },
				},
			});
			expect(result.error).toBeUndefined();
			const binary = result.items[0].binary?.data;
			expect(binary?.mimeType).toBe('text/csv');
			const csv = Buffer.from(binary?.data as string, 'base64')
				.toString('utf8')
				.trim()
				.split(/\r?\n/);
			expect(csv[0]).toMatch(/^id,/);
			expect(csv).toHaveLength(6);
			const request = (await client.requests())[0];
			expect(request.headers.accept).toBe('text/csv');
			expect(request.query).toMatchObject({ status: 'draft', limit: '5' });
		});
	});

	describe('Get', () => {
		it('gets an order with its contact and line items expanded', async () => {
			const order = (await client.state('orders')).find(
				(record) => record.contact && record.status === 'completed',
			)!;
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'get',
					orderId: rl(order.id),
					options: { expand: ['contact', 'line_items.item'] },
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'GET',
				path: `/2025-09/orders/${order.id}`,
				query: { expand: 'contact,line_items.item' },
			});
			const json = result.items[0].json;
			expect(json.id).toBe(order.id);
			expect(json.contact).toEqual(
				recordById(await client.state('contacts'), idOf(order.contact) as string),
			);
			const lines = json.line_items as Array<{ id: string; item: { id: string; name?: string } }>;
			expect(lines.map((line) => line.id)).toEqual(
				(order.line_items as Array<{ id: string }>).map((line) => line.id),
			);
			expect(lines[0].item.id).toMatch(/^utype_/);
			expect(lines[0].item.name).toBeDefined();
		});

		it('rejects an ID of another record before any request', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'order', operation: 'get', orderId: rl('inv_abc123') },
			});
			expect(result.error).toBeDefined();
			expect(await client.requests()).toEqual([]);
		});
	});

	describe('Validate', () => {
		it('returns the order when it is ready to be finalized', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const unitType = (await client.state('unit_types')).find(
				(type) => idOf(type.site) === site.id,
			)!;
			const created = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'create',
					orderSiteId: site.id,
					additionalFields: {
						billingPeriod: 'monthly',
						startsAt: '2030-05-01T00:00:00.000Z',
						contactId: rl(contact.id),
						lineItems: {
							lineItem: [{ type: 'unit_type', itemId: unitType.id, quantity: 1, price: '' }],
						},
					},
				},
			});
			const id = String(created.items[0].json.id);
			await client.clearRequests();
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'validate',
					orderId: rl(id),
					options: { expand: ['site'] },
				},
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{ method: 'GET', path: `/2025-09/orders/${id}/validate`, query: { expand: 'site' } },
			]);
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json.id).toBe(id);
			expect(result.items[0].json.site).toMatchObject({ id: site.id, name: site.name });
		});

		it('shows every validation problem with its field when the order is not ready', async () => {
			const order = await emptyDraftOrder(client);
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'order', operation: 'validate', orderId: rl(order.id) },
			});
			expect((result.error as { httpCode?: string }).httpCode).toBe('422');
			expect(result.error?.message).toMatch(/\[invalid_content\]$/);
			// The API's own answer, read directly: each of its details must reach the user with its pointer.
			const answer = (await (
				await fetch(`${fixture.sandbox.url}/2025-09/orders/${order.id}/validate`, {
					headers: { Authorization: `Bearer ${fixture.sandbox.token}` },
				})
			).json()) as { error: { details: Array<{ message: string; pointer: string }> } };
			const details = answer.error.details;
			expect(details.map((detail) => detail.pointer)).toEqual([
				'/starts_at',
				'/billing_period',
				'/contact',
				'/line_items',
			]);
			const lines = String(result.error?.description).split('\n');
			for (const detail of details)
				expect(lines).toContain(`Field ${detail.pointer}: ${detail.message}.`);
			expect(lines.find((line) => line.startsWith('Request ID: '))).toBeDefined();
			expect(lines[lines.length - 1]).toMatch(/^Operation: order → /);
		});

		it('carries the notice about the announced breaking change', async () => {
			const { Stora } = await import('../../../nodes/Stora/Stora.node');
			const notice = new Stora().description.properties.find(
				(property) =>
					property.type === 'notice' && property.displayOptions?.show?.resource?.includes('order'),
			);
			expect(notice?.displayOptions?.show?.operation).toEqual(['validate']);
			expect(notice?.displayName).toMatch(/breaking change/);
		});
	});

	describe('Finalize', () => {
		it('finalizes a complete draft order and returns its payment link', async () => {
			// Only an order with a unit type line item is complete.
			const lines = await client.state('order_line_items');
			const complete = (await client.state('orders')).find(
				(order) =>
					order.status === 'draft' &&
					order.contact &&
					order.starts_at &&
					order.billing_period &&
					(order.line_items as Array<{ id: string }>).some(
						(line) => recordById(lines, line.id)?.type === 'unit_type',
					),
			)!;
			expect(complete).toBeDefined();
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'finalize',
					orderId: rl(complete.id),
					additionalFields: { cancelRedirectUrl: 'https://example.com/back' },
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'POST',
				path: `/2025-09/orders/${complete.id}/finalize`,
				body: { finalize: { cancel_redirect_url: 'https://example.com/back' } },
			});
			expect(result.items[0].json).toEqual(recordById(await client.state('orders'), complete.id));
			expect(result.items[0].json).toMatchObject({ status: 'finalized' });
			expect(String(result.items[0].json.payment_url)).toMatch(/^https:\/\//);
		});

		it('surfaces the conflict when the order is not a draft', async () => {
			const completed = (await client.state('orders')).find(
				(order) => order.status === 'completed',
			)!;
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'order', operation: 'finalize', orderId: rl(completed.id) },
			});
			expect(result.error?.message).toMatch(/\[conflict\]$/);
			expect((result.error as { httpCode?: string }).httpCode).toBe('409');
			expect((await client.requests())[0].path).toBe(`/2025-09/orders/${completed.id}/finalize`);
		});
	});

	describe('list search', () => {
		it('pages through orders with the API page number as the token', async () => {
			const orders = [...(await client.state('orders'))].sort(newestFirst);
			const first = await searchBilling(credentials(), 'searchOrders');
			expect(first.results).toHaveLength(100);
			expect(first.paginationToken).toBe('2');
			expect(first.results[0].value).toBe(orders[0].id);
			expect(first.results[0].name).toContain(String(orders[0].status));
			const second = await searchBilling(
				credentials(),
				'searchOrders',
				undefined,
				first.paginationToken,
			);
			expect(second.results[0].value).toBe(orders[100].id);
			const queries = (await client.requests()).map((request) => request.query);
			expect(queries).toEqual([
				{ limit: '100', page: '1' },
				{ limit: '100', page: '2' },
			]);
		});
	});

	describe('Create', () => {
		it('creates a draft order with an existing contact, coupon, line items, emails and metadata', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const [coupon] = await client.state('coupons');
			const unitType = (await client.state('unit_types')).find(
				(type) => idOf(type.site) === site.id,
			)!;
			const [protection] = await client.state('protection_levels');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'create',
					orderSiteId: site.id,
					additionalFields: {
						billingPeriod: 'monthly',
						startsAt: '2030-05-01T09:00:00.000Z',
						contactId: rl(contact.id),
						couponId: rl(coupon.id),
						purchaseOrderNumber: 'PO-42',
						bookingConfirmationEmail: false,
						moveInDayEmail: true,
						lineItems: {
							lineItem: [
								{ type: 'unit_type', itemId: unitType.id, quantity: 1, price: '' },
								{ type: 'protection', itemId: protection.id, quantity: 1, price: '750' },
							],
						},
						metadata: { entry: [{ key: 'crm.id', value: 'A-1' }] },
					},
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0].method).toBe('POST');
			expect(requests[0].path).toBe('/2025-09/orders');
			expect(requests[0].headers['idempotency-key']).toMatch(/^n8n-/);
			expect(requests[0].body).toEqual({
				site: { id: site.id },
				billing_period: 'monthly',
				starts_at: '2030-05-01T09:00:00.000Z',
				contact: { id: contact.id },
				coupon: { id: coupon.id },
				purchase_order_number: 'PO-42',
				emails: { booking_confirmation: false, move_in_day: true },
				line_items: [
					{ type: 'unit_type', item: { id: unitType.id }, quantity: 1 },
					{ type: 'protection', item: { id: protection.id }, quantity: 1, price: { amount: 750 } },
				],
				metadata: { 'crm.id': 'A-1' },
			});
			const created = result.items[0].json;
			expect(created).toEqual(recordById(await client.state('orders'), String(created.id)));
			expect(created).toMatchObject({
				status: 'draft',
				source: 'public_api',
				contact: { id: contact.id },
			});
			const lines = await client.state('order_line_items');
			const protectionLine = recordById(lines, (created.line_items as Array<{ id: string }>)[1].id);
			expect(protectionLine.price).toMatchObject({ amount: 750 });
		});

		it('creates the order with a new contact and finalizes it at once', async () => {
			const [site] = await client.state('sites');
			const unitType = (await client.state('unit_types')).find(
				(type) => idOf(type.site) === site.id,
			)!;
			const contactsBefore = await client.state('contacts');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'create',
					orderSiteId: site.id,
					additionalFields: {
						billingPeriod: 'weekly',
						startsAt: '2030-06-01T00:00:00.000Z',
						newContact: {
							email: 'new.tenant@example.com',
							fullName: 'New Tenant',
							type: 'student',
							city: 'Leeds',
						},
						lineItems: {
							lineItem: [{ type: 'unit_type', itemId: unitType.id, quantity: 1, price: '' }],
						},
						finalize: true,
						cancelRedirectUrl: 'https://example.com/cancelled',
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.body).toEqual({
				site: { id: site.id },
				billing_period: 'weekly',
				starts_at: '2030-06-01T00:00:00.000Z',
				contact: {
					email: 'new.tenant@example.com',
					full_name: 'New Tenant',
					type: 'student',
					address: { city: 'Leeds' },
				},
				line_items: [{ type: 'unit_type', item: { id: unitType.id }, quantity: 1 }],
				finalize: { cancel_redirect_url: 'https://example.com/cancelled' },
			});
			const order = result.items[0].json;
			expect(order.status).toBe('finalized');
			expect(String(order.payment_url)).toContain(String(order.id));
			const contactsAfter = await client.state('contacts');
			expect(contactsAfter).toHaveLength(contactsBefore.length + 1);
			const contact = contactsAfter.find((record) => record.email === 'new.tenant@example.com')!;
			expect(order.contact).toEqual({ id: contact.id });
		});

		it('sends the documented emails members only, and a new contact with its address state and country code', async () => {
			// Where the API rejects undocumented members, the request must pass as it is.
			await client.configure({ unknown_params: 'reject' });
			const [site] = await client.state('sites');
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'create',
					orderSiteId: site.id,
					additionalFields: {
						bookingConfirmationEmail: true,
						moveInDayEmail: false,
						// Left over from workflows saved with the removed options: never sent.
						paymentDetailsEmail: true,
						newContact: {
							email: 'abroad@example.com',
							city: 'Dublin',
							state: 'Leinster',
							countryAlpha2: ' ie ',
							companyRegistrationNumber: '01234567',
						},
					},
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.status).toBe(201);
			expect(request.body).toEqual({
				site: { id: site.id },
				emails: { booking_confirmation: true, move_in_day: false },
				contact: {
					email: 'abroad@example.com',
					address: { city: 'Dublin', state: 'Leinster', country_alpha2: 'IE' },
				},
			});
			const contact = (await client.state('contacts')).find(
				(record) => record.id === idOf(result.items[0].json.contact),
			);
			expect(contact?.address).toMatchObject({
				city: 'Dublin',
				state: 'Leinster',
				country_alpha2: 'IE',
			});
		});

		it("checks the new contact's country code before any request, naming the parameter", async () => {
			const [site] = await client.state('sites');
			for (const code of ['GBR', 'United Kingdom', 'G1']) {
				const result = await runStora({
					credentials: credentials(),
					parameters: {
						resource: 'order',
						operation: 'create',
						orderSiteId: site.id,
						additionalFields: { newContact: { email: 'x@example.com', countryAlpha2: code } },
					},
				});
				expect(result.error?.message).toBe(
					`New Contact: Address Country Code: "${code}" is not a two-letter country code`,
				);
				expect(result.error?.description).toContain('ISO 3166-1 alpha-2');
			}
			expect(await client.requests()).toEqual([]);
		});

		it('checks line items, contact choice, dates and the cancel URL before any request', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const cases: Array<[Record<string, unknown>, RegExp]> = [
				[
					{
						lineItems: {
							lineItem: [{ type: 'protection', itemId: 'utype_abc', quantity: 1, price: '' }],
						},
					},
					/^Line Items, row 1: "utype_abc" is not a valid item ID for a protection line$/,
				],
				[
					{
						lineItems: {
							lineItem: [{ type: 'unit_type', itemId: 'utype_abc', quantity: 1, price: '12.50' }],
						},
					},
					/^Line Items, row 1: price "12.50" is not an amount in minor units$/,
				],
				[
					{
						lineItems: {
							lineItem: [{ type: 'unit_type', itemId: 'utype_abc', quantity: 0, price: '' }],
						},
					},
					/^Line Items, row 1: quantity 0 is out of range$/,
				],
				[
					{ contactId: rl(contact.id), newContact: { email: 'x@example.com' } },
					/^Contact and New Contact cannot be used together$/,
				],
				[{ newContact: { fullName: 'No Email' } }, /^New Contact: Email is required$/],
				[
					{ cancelRedirectUrl: 'https://example.com' },
					/^Cancel Redirect URL needs Finalize Immediately$/,
				],
				[{ startsAt: 'next tuesday' }, /^Starts At: "next tuesday" is not a valid date$/],
				[{ couponId: rl('con_abc123') }, /^Coupon: "con_abc123" is not a coupon ID$/],
			];
			for (const [additionalFields, message] of cases) {
				const result = await runStora({
					credentials: credentials(),
					parameters: {
						resource: 'order',
						operation: 'create',
						orderSiteId: site.id,
						additionalFields: additionalFields as INodeParameters,
					},
				});
				expect(result.error?.message).toMatch(message);
			}
			const wrongSite = await runStora({
				credentials: credentials(),
				parameters: { resource: 'order', operation: 'create', orderSiteId: contact.id },
			});
			expect(wrongSite.error?.message).toBe(`Site: "${contact.id}" is not a site ID`);
			expect(await client.requests()).toEqual([]);
		});

		it('shows every problem when finalizing at create time fails, and creates nothing', async () => {
			const [site] = await client.state('sites');
			const before = (await client.state('orders')).length;
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'order',
					operation: 'create',
					orderSiteId: site.id,
					additionalFields: { finalize: true },
				},
			});
			expect(result.error?.message).toMatch(/\[invalid_content\]$/);
			for (const pointer of ['/starts_at', '/billing_period', '/contact', '/line_items']) {
				expect(result.error?.description).toContain(`Field ${pointer}: `);
			}
			expect((await client.requests())[0].body).toEqual({ site: { id: site.id }, finalize: {} });
			expect(await client.state('orders')).toHaveLength(before);
		});
	});
});
