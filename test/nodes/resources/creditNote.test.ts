import { locator as rl, runStora } from '../../helpers/n8n';
import { newestFirst, pdfText } from '../../helpers/records';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Credit Note', () => {
	const fixture = useResourceFixture();
	const { client, credentials } = fixture;

	it('gets many credit notes, newest first', async () => {
		const notes = await client.state('credit_notes');
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'creditNote', operation: 'getAll', limit: 2 },
		});
		expect(result.error).toBeUndefined();
		expect(await client.requests()).toMatchObject([
			{ method: 'GET', path: '/2025-09/credit_notes', query: { limit: '2' } },
		]);
		expect(result.items.map((item) => item.json)).toEqual([...notes].sort(newestFirst).slice(0, 2));
	});

	it('gets one credit note, simplified', async () => {
		const [note] = await client.state('credit_notes');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'creditNote',
				operation: 'get',
				creditNoteId: rl(note.id),
				simplify: true,
			},
		});
		expect(result.error).toBeUndefined();
		expect((await client.requests())[0].path).toBe(`/2025-09/credit_notes/${note.id}`);
		expect(result.items[0].json).toEqual({
			id: note.id,
			number: note.number,
			invoice: note.invoice,
			contact: note.contact,
			status: note.status,
			type: note.type,
			reason: note.reason,
			total: note.total,
			created_at: note.created_at,
		});
	});

	it('downloads the credit note PDF', async () => {
		const [note] = await client.state('credit_notes');
		const result = await runStora({
			credentials: credentials(),
			parameters: { resource: 'creditNote', operation: 'downloadPdf', creditNoteId: rl(note.id) },
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({ method: 'GET', path: `/2025-09/credit_notes/${note.id}` });
		expect(request.headers.accept).toBe('application/pdf');
		const file = result.items[0].binary?.data;
		expect(file?.fileName).toBe(`${String(note.number)}.pdf`);
		expect(file?.mimeType).toBe('application/pdf');
		const text = pdfText(file?.data as string);
		expect(text.startsWith('%PDF-')).toBe(true);
		expect(text).toContain(`Credit note ${String(note.number)}`);
	});

	it('rejects an invoice ID as a credit note before any request', async () => {
		const [invoice] = await client.state('invoices');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'creditNote',
				operation: 'downloadPdf',
				creditNoteId: rl(invoice.id),
			},
		});
		expect(result.error?.message).toMatch(/A credit note ID starts with "cred_"/);
		expect(await client.requests()).toEqual([]);
	});
});
