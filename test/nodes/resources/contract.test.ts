import { searchContracts } from '../../../nodes/Stora/methods/listSearch/crm';
import { loadOptionsContext } from '../../helpers/loadOptions';
import { locator as byId, runStora } from '../../helpers/n8n';
import { idOf } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Contract', () => {
	const { client, credentials, seed } = useResourceFixture('contacts', 'contracts');
	const lists = () => loadOptionsContext(credentials(), { resource: 'contract', operation: 'get' });

	it('downloads the PDF of a signed contract as binary data', async () => {
		const signed = seed.contracts.find((c) => c.status === 'signed')!;
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'contract',
				operation: 'downloadPdf',
				contractId: byId(signed.id),
				binaryPropertyName: 'contract',
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({
			method: 'GET',
			path: `/2025-09/contracts/${signed.id}`,
			query: {},
		});
		expect(request.headers.accept).toBe('application/pdf');
		const binary = result.items[0].binary?.contract;
		expect(binary?.mimeType).toBe('application/pdf');
		expect(binary?.fileName).toBe(`${signed.id}.pdf`);
		expect(Buffer.from(binary!.data, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(result.items[0].json).toMatchObject({
			fileName: `${signed.id}.pdf`,
			mimeType: 'application/pdf',
		});
	});

	it('surfaces the API refusal for a contract that is not signed', async () => {
		const pending = seed.contracts.find((c) => c.status === 'pending')!;
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'contract', operation: 'downloadPdf', contractId: byId(pending.id) },
		});
		expect(result.error?.message).toBe(
			`Contract ${pending.id} is pending; only signed contracts have a PDF document [invalid_format]`,
		);
		expect((result.error as { httpCode?: string }).httpCode).toBe('406');
	});

	it('gets a contract with its contact and template expanded', async () => {
		const contract = seed.contracts[1];
		const templates = await client.state('contract_templates');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'contract',
				operation: 'get',
				contractId: { __rl: true, mode: 'list', value: contract.id },
				options: { expand: ['contact', 'contract_template'] },
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0]).toMatchObject({
			path: `/2025-09/contracts/${contract.id}`,
			query: { expand: 'contact,contract_template' },
		});
		expect(result.items[0].json).toEqual({
			...contract,
			contact: seed.contacts.find((c) => c.id === idOf(contract.contact)),
			contract_template: templates.find((t) => t.id === idOf(contract.contract_template)),
		});
	});

	it('rejects an ID of another kind before any request', async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'contract',
				operation: 'downloadPdf',
				contractId: byId('={{ $json.id }}'),
			},
			items: [{ id: seed.contacts[0].id }],
		});
		expect(result.error?.message).toBe(`Contract: "${seed.contacts[0].id}" is not a contract ID`);
		expect(await client.requests()).toEqual([]);
	});

	it('gets many contracts filtered by status, contact and template, sorted by signing date', async () => {
		const templates = await client.state('contract_templates');
		const contactIds = [
			idOf(seed.contracts[0].contact),
			idOf(seed.contracts[6].contact),
			idOf(seed.contracts[2].contact),
		].join(',');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'contract',
				operation: 'getAll',
				limit: 10,
				filters: {
					status: ['signed', 'pending'],
					contactIds,
					contractTemplateIds: [templates[0].id],
					signedAfter: '2000-01-01T00:00:00.000Z',
				},
				options: { sortBy: 'signed_at', sortDirection: 'DESC' },
				simplify: true,
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0].query).toEqual({
			limit: '10',
			status: 'signed,pending',
			contact_id: contactIds,
			contract_template_id: templates[0].id,
			signed_after: '2000-01-01T00:00:00.000Z',
			sort_by: 'signed_at',
			sort_direction: 'DESC',
		});
		const expected = seed.contracts
			.filter(
				(c) =>
					c.status === 'signed' &&
					contactIds.split(',').includes(String(idOf(c.contact))) &&
					idOf(c.contract_template) === templates[0].id,
			)
			.sort((a, b) => String(b.signed_at).localeCompare(String(a.signed_at)));
		expect(expected).toHaveLength(2);
		expect(result.items.map((item) => item.json)).toEqual(
			expected.map((c) => ({
				id: c.id,
				name: c.name,
				status: c.status,
				contact: c.contact,
				contract_template: c.contract_template,
				tenancy: c.tenancy,
				sent_at: c.sent_at,
				signed_at: c.signed_at,
			})),
		);
	});

	it('labels contracts with their status for the resource locator, filtered on the text here', async () => {
		const { results } = await searchContracts.call(lists(), 'business');
		const expected = seed.contracts.filter((c) => /business/i.test(String(c.name)));
		expect(results.map((r) => r.value).sort()).toEqual(expected.map((c) => c.id).sort());
		const first = expected.find((c) => c.id === results[0].value)!;
		expect(results[0].name).toBe(`${String(first.name)} [${String(first.status)}]`);
	});
});
