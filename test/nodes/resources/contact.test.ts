import { searchContacts } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as byId, runStora } from '../../helpers/n8n';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Contact', () => {
	const { client, credentials, seed } = useResourceFixture('contacts');
	const stateOf = async (id: string) =>
		(await client.state('contacts')).find((contact) => contact.id === id);

	describe('Create', () => {
		it('posts every field to /2025-09/contacts and returns the new lead', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'create',
					email: 'nina.lopez@example.com',
					additionalFields: {
						fullName: 'Nina Lopez',
						phoneNumber: '+44 7700 900123',
						taxId: '',
						companyRegistrationNumber: '01234567',
						type: 'company',
						source: 'phone',
						marketingSource: 'google_search',
						useCase: 'moving_home',
						address: {
							address: {
								line1: '1 Dock Road',
								city: 'Leeds',
								postalCode: 'LS1 1AA',
								countryAlpha2: 'gb',
							},
						},
						metadata: { entry: [{ key: 'crm.id', value: 'HUB-42' }] },
					},
				},
			});
			expect(result.error).toBeUndefined();
			const requests = await client.requests();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'POST', path: '/2025-09/contacts', query: {} });
			expect(requests[0].headers['idempotency-key']).toMatch(/^n8n-[0-9a-f]{32}$/);
			expect(requests[0].body).toEqual({
				email: 'nina.lopez@example.com',
				full_name: 'Nina Lopez',
				phone_number: '+44 7700 900123',
				tax_id: null,
				company_registration_number: '01234567',
				type: 'company',
				source: 'phone',
				marketing_source: 'google_search',
				use_case: 'moving_home',
				address: {
					line_1: '1 Dock Road',
					line_2: null,
					city: 'Leeds',
					postal_code: 'LS1 1AA',
					state: null,
					country_alpha2: 'GB',
				},
				metadata: { 'crm.id': 'HUB-42' },
			});

			expect(result.items).toHaveLength(1);
			const created = result.items[0].json;
			expect(created.id).toMatch(/^con_/);
			expect(created).toEqual(await stateOf(String(created.id)));
			expect(created).toMatchObject({
				status: 'lead',
				email: 'nina.lopez@example.com',
				metadata: { 'crm.id': 'HUB-42' },
			});
		});

		it('refuses an address that is not an email before any request, naming the parameter', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'create', email: 'not-an-email' },
			});
			expect(result.error?.message).toBe('Email: "not-an-email" is not an email address');
			expect(await client.requests()).toHaveLength(0);
			expect(await client.state('contacts')).toHaveLength(seed.contacts.length);
		});

		it("surfaces the API's validation error with the faulty field", async () => {
			// An expression giving a number where Stora wants text: only Stora refuses it.
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'create',
					email: 'nina@example.com',
					additionalFields: { taxId: '={{ 42 }}' },
				},
			});
			expect(result.error?.message).toMatch(/\[invalid_content\]$/);
			expect(result.error?.description).toContain('Field /tax_id');
			expect((result.error as { httpCode?: string }).httpCode).toBe('422');
			expect(await client.state('contacts')).toHaveLength(seed.contacts.length);
		});
	});

	describe('Get', () => {
		it('gets a contact picked from the list and simplifies it', async () => {
			const contact = seed.contacts[3];
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'get',
					contactId: { __rl: true, mode: 'list', value: contact.id, cachedResultName: 'x' },
					simplify: true,
				},
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{ method: 'GET', path: `/2025-09/contacts/${contact.id}`, query: {} },
			]);
			expect(result.items.map((item) => item.json)).toEqual([
				{
					id: contact.id,
					email: contact.email,
					full_name: contact.full_name,
					phone_number: contact.phone_number,
					status: 'customer',
					type: contact.type,
					created_at: contact.created_at,
					updated_at: contact.updated_at,
				},
			]);
		});

		it('fails before any request when the ID is not a contact ID, typed or from an expression', async () => {
			const typed = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'get', contactId: byId('deal_abc123') },
			});
			expect(typed.error?.message).toContain('A contact ID starts with "con_"');

			const fromExpression = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'get', contactId: byId('={{ $json.id }}') },
				items: [{ id: 'deal_abc123' }],
			});
			expect(fromExpression.error?.message).toBe('Contact: "deal_abc123" is not a contact ID');
			expect(await client.requests()).toEqual([]);
		});
	});

	describe('Update', () => {
		it('patches only the given fields, an emptied field as null', async () => {
			const contact = seed.contacts[21];
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'update',
					contactId: byId(contact.id),
					updateFields: { email: 'new.address@example.com', phoneNumber: '', useCase: 'refurb' },
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request).toMatchObject({ method: 'PATCH', path: `/2025-09/contacts/${contact.id}` });
			expect(request.body).toEqual({
				email: 'new.address@example.com',
				phone_number: null,
				use_case: 'refurb',
			});
			const stored = await stateOf(contact.id);
			expect(stored).toMatchObject({
				email: 'new.address@example.com',
				phone_number: null,
				use_case: 'refurb',
			});
			expect(stored?.full_name).toBe(contact.full_name);
			expect(result.items[0].json).toEqual(stored);
		});
	});

	describe('Address country code', () => {
		it('checks it before any request on Create and Update, naming the parameter; emptied on Update, it clears', async () => {
			const create = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'create',
					email: 'abroad@example.com',
					additionalFields: { address: { address: { city: 'Leeds', countryAlpha2: 'GBR' } } },
				},
			});
			expect(create.error?.message).toBe(
				'Address: Country Code: "GBR" is not a two-letter country code',
			);
			const update = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'update',
					contactId: byId(seed.contacts[21].id),
					updateFields: { address: { address: { countryAlpha2: 'England' } } },
				},
			});
			expect(update.error?.message).toBe(
				'Address: Country Code: "England" is not a two-letter country code',
			);
			expect(await client.requests()).toEqual([]);

			const cleared = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'update',
					contactId: byId(seed.contacts[21].id),
					updateFields: { address: { address: { city: 'York', countryAlpha2: '' } } },
				},
			});
			expect(cleared.error).toBeUndefined();
			expect((await client.requests())[0].body).toEqual({
				address: {
					line_1: null,
					line_2: null,
					city: 'York',
					postal_code: null,
					state: null,
					country_alpha2: null,
				},
			});
		});
	});

	describe('Delete', () => {
		it('deletes a lead without invoices and returns {deleted, id, message}', async () => {
			const lead = seed.contacts[25];
			expect(lead.status).toBe('lead');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'delete', contactId: byId(lead.id) },
			});
			expect(result.error).toBeUndefined();
			expect(await client.requests()).toMatchObject([
				{ method: 'DELETE', path: `/2025-09/contacts/${lead.id}` },
			]);
			expect(result.items.map((item) => item.json)).toEqual([
				{ deleted: true, id: lead.id, message: `Contact ${lead.id} deleted` },
			]);
			expect(await stateOf(lead.id)).toBeUndefined();
		});

		it('surfaces the 409 conflict for a customer with the API message and code, and keeps the contact', async () => {
			const customer = seed.contacts[2];
			expect(customer.status).toBe('customer');
			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'delete', contactId: byId(customer.id) },
			});
			expect(result.error?.message).toBe(
				`Contact ${customer.id} cannot be deleted: only leads can be deleted (status is customer) [conflict]`,
			);
			expect((result.error as { httpCode?: string }).httpCode).toBe('409');
			expect(result.error?.description).toMatch(/Request ID: /);
			expect(await stateOf(customer.id)).toBeDefined();
		});

		it('refuses a churned contact and a lead that has invoices', async () => {
			const churned = seed.contacts[17];
			const lead = seed.contacts[30];
			const [invoice] = await client.state('invoices');
			const copy: Record<string, unknown> = { ...invoice, contact: { id: lead.id } };
			delete copy.id;
			await client.insert('invoices', [copy]);

			const result = await runStora({
				credentials: credentials(),
				parameters: { resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}' },
				items: [{ id: churned.id }, { id: lead.id }],
				continueOnFail: true,
			});
			expect(result.items.map((item) => item.json.error)).toEqual([
				`Contact ${churned.id} cannot be deleted: only leads can be deleted (status is churned) [conflict]`,
				`Contact ${lead.id} cannot be deleted: it has invoices [conflict]`,
			]);
			expect(await stateOf(churned.id)).toBeDefined();
			expect(await stateOf(lead.id)).toBeDefined();
		});
	});

	describe('list search', () => {
		it("searches contacts with the API's search parameter and labels them by name and email", async () => {
			const context = loadOptionsContext(credentials(), { resource: 'contact', operation: 'get' });
			const { results } = await searchContacts.call(context, 'khan');
			const expected = seed.contacts.filter((c) =>
				/khan/i.test(`${String(c.full_name)} ${String(c.email)}`),
			);
			expect(results.map((r) => r.value).sort()).toEqual(expected.map((c) => c.id).sort());
			const first = expected.find((c) => c.id === results[0].value)!;
			expect(results[0].name).toBe(`${String(first.full_name)} (${String(first.email)})`);
			expect((await client.requests())[0]).toMatchObject({
				path: '/2025-09/contacts',
				query: { search: 'khan', page: '1', limit: '100' },
			});
		});
	});

	describe('Get Many', () => {
		it('sends every filter as the query the API documents and returns the matching contacts', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: false,
					limit: 100,
					filters: {
						status: ['customer', 'churned'],
						type: ['domestic', 'unspecified'],
						source: ['pre_open', 'unspecified'],
						marketingSource: ['google_search', 'used_before', 'unspecified'],
						useCase: ['business_needs', 'moving_home', 'unspecified'],
						createdAfter: '2000-01-01T00:00:00.000Z',
						updatedBefore: '2100-01-01T00:00:00.000Z',
						metadata: { entry: [{ key: 'tier', value: 'gold' }] },
					},
					options: { sortBy: 'full_name', sortDirection: 'ASC' },
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.path).toBe('/2025-09/contacts');
			expect(request.query).toEqual({
				limit: '100',
				status: 'customer,churned',
				type: 'domestic,unspecified',
				source: 'pre_open,unspecified',
				marketing_source: 'google_search,used_before,unspecified',
				use_case: 'business_needs,moving_home,unspecified',
				created_after: '2000-01-01T00:00:00.000Z',
				updated_before: '2100-01-01T00:00:00.000Z',
				'metadata[tier]': 'gold',
				sort_by: 'full_name',
				sort_direction: 'ASC',
			});
			const inSet = (value: unknown, set: string[]) =>
				value === null ? set.includes('unspecified') : set.includes(String(value));
			const expected = seed.contacts
				.filter(
					(c) =>
						['customer', 'churned'].includes(String(c.status)) &&
						inSet(c.type, ['domestic', 'unspecified']) &&
						inSet(c.source, ['pre_open', 'unspecified']) &&
						inSet(c.marketing_source, ['google_search', 'used_before', 'unspecified']) &&
						inSet(c.use_case, ['business_needs', 'moving_home', 'unspecified']) &&
						(c.metadata as Record<string, unknown>).tier === 'gold',
				)
				.map((c) => String(c.full_name))
				.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
			expect(expected.length).toBeGreaterThan(0);
			expect(result.items.map((item) => item.json.full_name)).toEqual(expected);
		});

		it('refuses a metadata filter key longer than 255 characters before any request, naming the filter', async () => {
			const key = 'k'.repeat(256);
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 10,
					filters: { metadata: { entry: [{ key, value: 'gold' }] } },
				},
			});
			expect(result.error?.message).toMatch(
				/^Metadata: the key "k+\.\.\." is 256 characters long$/,
			);
			expect(await client.requests()).toEqual([]);
			// 255 is still sent.
			const longest = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 10,
					filters: { metadata: { entry: [{ key: key.slice(1), value: 'gold' }] } },
				},
			});
			expect(longest.error).toBeUndefined();
			expect((await client.requests()).map((request) => Object.keys(request.query))).toEqual([
				['limit', `metadata[${key.slice(1)}]`],
			]);
		});

		it('finds contacts by exact email (comma-separated) and by fuzzy search', async () => {
			const emails = [seed.contacts[4].email, seed.contacts[9].email].join(',');
			const byEmail = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 10,
					filters: { email: emails },
				},
			});
			expect(byEmail.items.map((item) => item.json.id).sort()).toEqual(
				[seed.contacts[4].id, seed.contacts[9].id].sort(),
			);

			const bySearch = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 50,
					filters: { search: 'olivia' },
				},
			});
			const olivias = seed.contacts.filter((c) =>
				/olivia/i.test(`${String(c.full_name)} ${String(c.email)}`),
			);
			expect(bySearch.items.map((item) => item.json.id).sort()).toEqual(
				olivias.map((c) => c.id).sort(),
			);

			const queries = (await client.requests()).map((request) => request.query);
			expect(queries).toEqual([
				{ limit: '10', email: emails },
				{ limit: '50', search: 'olivia' },
			]);
		});

		it('returns all contacts across pages', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					returnAll: true,
					filters: { status: ['lead'] },
				},
			});
			expect(result.error).toBeUndefined();
			const leads = seed.contacts.filter((c) => c.status === 'lead').map((c) => c.id);
			expect(result.items.map((item) => item.json.id).sort()).toEqual(leads.sort());
			for (const request of await client.requests())
				expect(request.query).toMatchObject({ status: 'lead', limit: '100' });
		});

		it('exports the contacts as a CSV file', async () => {
			const result = await runStora({
				credentials: credentials(),
				parameters: {
					resource: 'contact',
					operation: 'getAll',
					limit: 5,
					filters: { status: ['churned'] },
					outputFormat: 'csv',
					binaryPropertyName: 'contacts',
				},
			});
			expect(result.error).toBeUndefined();
			const [request] = await client.requests();
			expect(request.headers.accept).toBe('text/csv');
			const binary = result.items[0].binary?.contacts;
			expect(binary?.mimeType).toBe('text/csv');
			const lines = Buffer.from(binary!.data, 'base64').toString('utf8').trim().split('\n');
			expect(lines[0]).toContain('email');
			expect(lines).toHaveLength(1 + 5);
		});
	});
});
