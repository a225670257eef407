/**
 * Reading the sandbox's records in the node's resource suites (test/nodes/resources/<resource>.test.ts): what more than
 * one suite needs to find, sort or read a record, written once here.
 */
import type { SandboxClient, StateRecord } from '../../sandbox/client';

/** The ID of a reference as the API writes one (`{ id }`), or undefined when there is none. */
export const idOf = (ref: unknown) => (ref as { id?: string } | null | undefined)?.id;

const createdAt = (record: StateRecord) => Date.parse(String(record.created_at));

/** Newest first by `created_at`, as the API lists records by default. */
export const newestFirst = (a: StateRecord, b: StateRecord) => createdAt(b) - createdAt(a);

/** Oldest first by `created_at`. */
export const oldestFirst = (a: StateRecord, b: StateRecord) => -newestFirst(a, b);

/** The record with this ID among `records`. */
export const recordById = (records: StateRecord[], id: string) =>
	records.find((record) => record.id === id) as StateRecord;

/** The record with this ID in the sandbox's `collection` now, or undefined when there is none. */
export const findRecord = async (client: SandboxClient, collection: string, id: string) =>
	(await client.state(collection)).find((record) => record.id === id);

/** The HTTP status code n8n's error carries. */
export const httpCode = (error: unknown) => (error as { httpCode?: string }).httpCode;

/** The text of a PDF file the node output as base64 binary data. */
export const pdfText = (base64: string) => Buffer.from(base64, 'base64').toString('latin1');

type Price = { billing_period: string; price: { amount: number } };

/** The base prices of a product, protection level or unit type, by billing period: `{ monthly: 1250, ... }`. */
export const amounts = (record: unknown) =>
	Object.fromEntries(
		((record as { prices: Price[] }).prices ?? []).map((p) => [p.billing_period, p.price.amount]),
	);

/** A draft order with nothing set (no start, billing period, contact or line items). */
export const emptyDraftOrder = async (client: SandboxClient) =>
	(await client.state('orders')).find(
		(order) =>
			order.status === 'draft' && !order.contact && !order.billing_period && !order.starts_at,
	) as StateRecord;

/** The seed's timeline sources and templates, and each by its name. */
export async function timelineRecords(client: SandboxClient) {
	const sources = await client.state('sources');
	const templates = await client.state('templates');
	return {
		sources,
		templates,
		source: (name: string) => sources.find((s) => s.name === name)!,
		template: (name: string) => templates.find((t) => t.name === name)!,
	};
}
