import type { INodeParameters } from 'n8n-workflow';

import { locator as rl, runStora } from '../../helpers/n8n';
import { idOf, recordById } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

/** Order → Create; the other operations of Order are in order.test.ts. */
describe('Stora node: Order', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	describe('Create', () => {
		it('creates a draft order with an existing contact, coupon, line items, emails and metadata', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const [coupon] = await client.state('coupons');
			const unitType = (await client.state('unit_types')).find((type) => idOf(type.site) === site.id)!;
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
			expect(created).toMatchObject({ status: 'draft', source: 'public_api', contact: { id: contact.id } });
			const lines = await client.state('order_line_items');
			const protectionLine = recordById(lines, (created.line_items as Array<{ id: string }>)[1].id);
			expect(protectionLine.price).toMatchObject({ amount: 750 });
		});

		it('creates the order with a new contact and finalizes it at once', async () => {
			const [site] = await client.state('sites');
			const unitType = (await client.state('unit_types')).find((type) => idOf(type.site) === site.id)!;
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
						newContact: { email: 'new.tenant@example.com', fullName: 'New Tenant', type: 'student', city: 'Leeds' },
						lineItems: { lineItem: [{ type: 'unit_type', itemId: unitType.id, quantity: 1, price: '' }] },
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
				contact: { email: 'abroad@example.com', address: { city: 'Dublin', state: 'Leinster', country_alpha2: 'IE' } },
			});
			const contact = (await client.state('contacts')).find((record) => record.id === idOf(result.items[0].json.contact));
			expect(contact?.address).toMatchObject({ city: 'Dublin', state: 'Leinster', country_alpha2: 'IE' });
		});

		it('checks the new contact\'s country code before any request, naming the parameter', async () => {
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
				expect(result.error?.message).toBe(`New Contact: Address Country Code: "${code}" is not a two-letter country code`);
				expect(result.error?.description).toContain('ISO 3166-1 alpha-2');
			}
			expect(await client.requests()).toEqual([]);
		});

		it('checks line items, contact choice, dates and the cancel URL before any request', async () => {
			const [site] = await client.state('sites');
			const [contact] = await client.state('contacts');
			const cases: Array<[Record<string, unknown>, RegExp]> = [
				[
					{ lineItems: { lineItem: [{ type: 'protection', itemId: 'utype_abc', quantity: 1, price: '' }] } },
					/^Line Items, row 1: "utype_abc" is not a valid item ID for a protection line$/,
				],
				[
					{ lineItems: { lineItem: [{ type: 'unit_type', itemId: 'utype_abc', quantity: 1, price: '12.50' }] } },
					/^Line Items, row 1: price "12.50" is not an amount in minor units$/,
				],
				[
					{ lineItems: { lineItem: [{ type: 'unit_type', itemId: 'utype_abc', quantity: 0, price: '' }] } },
					/^Line Items, row 1: quantity 0 is out of range$/,
				],
				[{ contactId: rl(contact.id), newContact: { email: 'x@example.com' } }, /^Contact and New Contact cannot be used together$/],
				[{ newContact: { fullName: 'No Email' } }, /^New Contact: Email is required$/],
				[{ cancelRedirectUrl: 'https://example.com' }, /^Cancel Redirect URL needs Finalize Immediately$/],
				[{ startsAt: 'next tuesday' }, /^Starts At: "next tuesday" is not a valid date$/],
				[{ couponId: rl('con_abc123') }, /^Coupon: "con_abc123" is not a coupon ID$/],
			];
			for (const [additionalFields, message] of cases) {
				const result = await runStora({
					credentials: credentials(),
					parameters: { resource: 'order', operation: 'create', orderSiteId: site.id, additionalFields: additionalFields as INodeParameters },
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
				parameters: { resource: 'order', operation: 'create', orderSiteId: site.id, additionalFields: { finalize: true } },
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
