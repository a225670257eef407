/**
 * Helpers shared by the CRM resource modules (contacts, deals, opportunities, tasks, notes, timeline,
 * contracts, identity verifications, staff). Everything here talks to the core only through its contract.
 */
import { ApiError, invalidContent, notFound } from '../../core/errors';
import type { ApiRecord, ErrorDetail, Ref, SandboxCore } from '../../core/types';
import type { Schema } from '../../core/validate';
import { validateBody } from '../../core/validate';

/** Human names of every resource a CRM record may reference, by identifier prefix. */
const RESOURCE_NAMES: Record<string, string> = {
	con_: 'Contact',
	deal_: 'Deal',
	dstg_: 'Deal stage',
	opp_: 'Opportunity',
	task_: 'Task',
	note_: 'Note',
	aevt_: 'Timeline event',
	tsrc_: 'Timeline source',
	aetpl_: 'Timeline template',
	idver_: 'Identity verification',
	ctpl_: 'Contract template',
	ctr_: 'Contract',
	staff_: 'Staff member',
	site_: 'Site',
	unit_: 'Unit',
	utype_: 'Unit type',
	plvl_: 'Protection level',
	sub_: 'Subscription',
	ten_: 'Tenancy',
	inv_: 'Invoice',
	order_: 'Order',
};

export const prefixOf = (id: string): string => {
	const i = id.indexOf('_');
	return i < 0 ? '' : id.slice(0, i + 1);
};

export const resourceName = (id: string): string => RESOURCE_NAMES[prefixOf(id)] ?? 'Resource';

/** ISO timestamp of the sandbox clock. */
export const nowIso = (core: SandboxCore): string => core.now().toISOString();

/** A deterministic instant relative to the sandbox clock: `days` days ago at `hour:minute` UTC. */
export function daysAgo(core: SandboxCore, days: number, hour = 9, minute = 0): string {
	const d = new Date(core.now().getTime());
	d.setUTCDate(d.getUTCDate() - days);
	d.setUTCHours(hour, minute, 0, 0);
	return d.toISOString();
}

/** Records of a collection another module owns; an unregistered collection reads as empty. */
export function safeAll(core: SandboxCore, collection: string): ApiRecord[] {
	try {
		return core.all(collection) ?? [];
	} catch {
		return [];
	}
}

export const refId = (value: unknown): string | undefined => {
	if (value && typeof value === 'object' && typeof (value as Ref).id === 'string')
		return (value as Ref).id;
	return undefined;
};

/**
 * Checks that a referenced record exists: a wrong prefix is a 422 `invalid_content` at `<pointer>/id`,
 * an unknown id a 404 `resource_not_found` naming the resource. Returns the stored record.
 */
export function requireRef(
	core: SandboxCore,
	value: unknown,
	prefixes: string[],
	pointer: string,
): ApiRecord {
	const id = refId(value);
	if (!id)
		throw invalidContent([
			{ message: `The value at ${pointer} must be an object with an 'id'`, pointer },
		]);
	if (!prefixes.includes(prefixOf(id))) {
		throw invalidContent([
			{
				message: `The value at ${pointer}/id must start with one of: ${prefixes.join(', ')}`,
				pointer: `${pointer}/id`,
			},
		]);
	}
	const record = core.find(id);
	if (!record) throw notFound(resourceName(id), id);
	return record;
}

/** Like `requireRef` but `null`/absent pass through as `null`. */
export function optionalRef(
	core: SandboxCore,
	value: unknown,
	prefixes: string[],
	pointer: string,
): Ref | null {
	if (value === undefined || value === null) return null;
	return { id: requireRef(core, value, prefixes, pointer).id };
}

/**
 * `validateBody` plus extra checks (e.g. string-only maps); every problem of both ends up in one
 * 422 `invalid_content` error.
 */
export function validate(
	body: unknown,
	schema: Schema,
	extra?: (body: Record<string, unknown>) => ErrorDetail[],
): Record<string, unknown> {
	const isObject = !!body && typeof body === 'object' && !Array.isArray(body);
	const extraDetails = extra && isObject ? extra(body as Record<string, unknown>) : [];
	if (!extraDetails.length) return validateBody(body, schema);
	let details: ErrorDetail[] = [];
	try {
		validateBody(body, schema);
	} catch (error) {
		if (error instanceof ApiError) details = [...error.details];
	}
	throw invalidContent([...details, ...extraDetails]);
}

/** Details for a map whose values must all be strings (timeline event `variables`). */
export function stringMapProblems(value: unknown, pointer: string): ErrorDetail[] {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	return Object.entries(value as Record<string, unknown>)
		.filter(([, v]) => typeof v !== 'string')
		.map(([k]) => ({
			message: `The value at ${pointer}/${k} must be a string`,
			pointer: `${pointer}/${k}`,
		}));
}

/** Copies the members of `body` that are present (not `undefined`) among `keys`. */
export function present(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
	return out;
}

/**
 * PATCH semantics of `metadata` (same as webhook endpoints): keys merge into the stored object and a null value
 * removes its key.
 */
export function mergeMetadata(
	stored: unknown,
	patch: Record<string, unknown>,
): Record<string, unknown> {
	const out: Record<string, unknown> = {
		...((stored as Record<string, unknown> | undefined) ?? {}),
	};
	for (const [k, v] of Object.entries(patch)) {
		if (v === null) delete out[k];
		else out[k] = v;
	}
	return out;
}

/** Applies `mergeMetadata` to a PATCH change set when it carries `metadata`. */
export function withMergedMetadata(
	record: ApiRecord,
	changes: Record<string, unknown>,
): Record<string, unknown> {
	if (changes.metadata && typeof changes.metadata === 'object') {
		changes.metadata = mergeMetadata(record.metadata, changes.metadata as Record<string, unknown>);
	}
	return changes;
}

/** State a module keeps outside the (closed) records, one instance per sandbox. */
export function perSandbox<T>(create: () => T): {
	get(core: SandboxCore): T;
	reset(core: SandboxCore): T;
} {
	const states = new WeakMap<SandboxCore, T>();
	return {
		get(core) {
			let state = states.get(core);
			if (state === undefined) {
				state = create();
				states.set(core, state);
			}
			return state;
		},
		reset(core) {
			const state = create();
			states.set(core, state);
			return state;
		},
	};
}

/** Tenancy is active when it has not ended (no `ends_at`, or `ends_at` in the future). Defensive about shapes. */
export function tenancyActive(tenancy: ApiRecord, now: Date): boolean {
	const status = tenancy.status;
	if (typeof status === 'string') {
		if (['ended', 'cancelled', 'canceled', 'terminated', 'churned', 'moved_out'].includes(status))
			return false;
	}
	for (const field of ['ends_at', 'ended_at']) {
		const end = tenancy[field];
		if (typeof end === 'string' && Date.parse(end) <= now.getTime()) return false;
	}
	return true;
}

export const tenanciesOf = (core: SandboxCore, contactId: string): ApiRecord[] =>
	safeAll(core, 'tenancies').filter((t) => refId(t.contact) === contactId);

export type ContactStatus = 'lead' | 'customer' | 'churned';

/** Derived contact status: no tenancies → lead; any active → customer; all ended → churned. */
export function contactStatus(core: SandboxCore, contactId: string): ContactStatus {
	const tenancies = tenanciesOf(core, contactId);
	if (!tenancies.length) return 'lead';
	const now = core.now();
	return tenancies.some((t) => tenancyActive(t, now)) ? 'customer' : 'churned';
}

/** Common "created/updated" window spec for lists. */
export const TIME_WINDOWS = { created: 'created_at', updated: 'updated_at' };

/** HTTP status of a successful create (the docs do not render it; 201 chosen). */
export const CREATED = 201;

/** `iso` moved on by `hours` (seed dates derived from one another). */
export const later = (iso: string, hours: number) =>
	new Date(Date.parse(iso) + hours * 3_600_000).toISOString();

/** `{ id }` of the i-th record, cycling (seeds hand out staff round robin). */
export const refAt = (records: ApiRecord[], i: number): Ref => ({
	id: records[i % records.length].id,
});
