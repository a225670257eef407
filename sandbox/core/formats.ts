/** `Accept` negotiation and the two non-JSON representations (CSV for lists, a tiny PDF for documents). */
import { invalidFormat } from './errors';
import type { ResponseFormat } from './types';

/**
 * Picks the representation for a route. JSON wins for a missing header, `*\/*`, `application/*` and
 * `application/json`; a declared extra type wins when the client prefers it (by q, then by order).
 * Anything else is a 406 `invalid_format`.
 */
export function negotiate(
	accept: string | undefined,
	declared: ResponseFormat[] = [],
): ResponseFormat {
	if (!accept || !accept.trim()) return 'application/json';
	const ranges = accept
		.split(',')
		.map((part, index) => {
			const [type, ...params] = part.trim().toLowerCase().split(';');
			const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
			return { type: type.trim(), q: q ? Number(q.slice(2)) : 1, index };
		})
		.filter((r) => r.type && !(r.q <= 0))
		.sort((a, b) => b.q - a.q || a.index - b.index);
	for (const { type } of ranges) {
		if (type === 'application/json' || type === '*/*' || type === 'application/*')
			return 'application/json';
		if ((declared as string[]).includes(type)) return type as ResponseFormat;
		if (type === 'text/*' && declared.includes('text/csv')) return 'text/csv';
	}
	throw invalidFormat(accept);
}

/** Flattens a rendered record into CSV columns: nested objects become `a.b`, refs become their id, arrays join with `;`. */
export function flatten(
	value: unknown,
	prefix = '',
	out: Record<string, string> = {},
): Record<string, string> {
	if (value === null || value === undefined) {
		out[prefix] = '';
	} else if (Array.isArray(value)) {
		out[prefix] = value
			.map((item) =>
				isRef(item)
					? (item as { id: string }).id
					: typeof item === 'object' && item !== null
						? JSON.stringify(item)
						: String(item),
			)
			.join(';');
	} else if (typeof value === 'object') {
		if (prefix && isRef(value)) {
			out[prefix] = (value as { id: string }).id;
		} else {
			const entries = Object.entries(value as Record<string, unknown>);
			if (prefix && entries.length === 0) out[prefix] = '';
			for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
		}
	} else {
		out[prefix] = String(value);
	}
	return out;
}

function isRef(value: unknown): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		typeof (value as { id?: unknown }).id === 'string' &&
		Object.keys(value).length === 1
	);
}

function csvCell(value: string): string {
	return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** RFC 4180 CSV: header row from the union of flattened keys (first-seen order), CRLF line ends. */
export function toCsv(rows: unknown[]): string {
	const flat = rows.map((row) => flatten(row));
	const columns: string[] = [];
	for (const row of flat)
		for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
	const lines = [columns.map(csvCell).join(',')];
	for (const row of flat) lines.push(columns.map((c) => csvCell(row[c] ?? '')).join(','));
	return lines.join('\r\n') + '\r\n';
}

/** A minimal, valid single-page PDF 1.4 (correct xref offsets) whose text names the document. */
export function toPdf(title: string, lines: string[] = []): Buffer {
	const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
	const text = [title, ...lines]
		.map(
			(line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 72 ${720 - i * 20} Td (${escape(line)}) Tj ET`,
		)
		.join('\n');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((obj, i) => {
		offsets.push(Buffer.byteLength(body, 'latin1'));
		body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
	});
	const xref = Buffer.byteLength(body, 'latin1');
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}
