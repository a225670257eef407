/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- sandbox test, never published */
/**
 * The documented fields of every record the API returns (fixtures/documentedFields.json, written from the API
 * reference and the spec by scripts/documentedFields.mjs) and the two checks documentedFields.test.ts makes with them:
 * a record against its fields, and a shipped output schema (nodes/Stora/__schema__) against them. Every problem is one
 * line naming the field (a dotted path) and what differs. Not part of the sandbox build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type FieldType =
	| 'string'
	| 'integer'
	| 'number'
	| 'boolean'
	| 'date-time'
	| 'date'
	| 'ref'
	| 'money'
	| 'array'
	| 'object'
	| 'any';

export interface FieldSpec {
	type: FieldType | FieldType[];
	nullable?: boolean;
	/** Array elements. */
	items?: FieldSpec;
	/** A closed object's members (each present unless `when` or `optional` says otherwise). */
	fields?: Record<string, FieldSpec>;
	/** A free-keyed object's values (metadata, timeline variables). */
	values?: FieldSpec;
	/** Present exactly while the sibling `field` equals `equals` (coupon `percent`, a site's opening hours). */
	when?: { field: string; equals: unknown };
	/** May be absent (a voided contract's storefront link). */
	optional?: boolean;
}

export interface DocumentedResource {
	source: string;
	fields: Record<string, FieldSpec>;
}

export interface Difference {
	resource: string;
	field: string;
	docs: string;
	spec: string;
	followed: string;
	note?: string;
}

export const DOCUMENTED = JSON.parse(
	readFileSync(join(__dirname, 'fixtures', 'documentedFields.json'), 'utf8'),
) as {
	resources: Record<string, DocumentedResource>;
	differences: Difference[];
};

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const keysAre = (v: Json, keys: string[]) =>
	Object.keys(v).sort().join() === [...keys].sort().join();

const describe = (v: unknown) =>
	v === null
		? 'null'
		: Array.isArray(v)
			? 'an array'
			: isObject(v)
				? `an object {${Object.keys(v).join(', ')}}`
				: `${typeof v} ${JSON.stringify(v)}`;
export const typeName = (spec: FieldSpec) =>
	[spec.type].flat().join(' or ') + (spec.nullable ? ' or null' : '');

/** Whether a value has the type (its own shape only: elements and members are checked by `valueProblems`). */
function hasType(v: unknown, type: FieldType): boolean {
	switch (type) {
		case 'string':
			return typeof v === 'string';
		case 'integer':
			return Number.isInteger(v);
		case 'number':
			return typeof v === 'number' && Number.isFinite(v);
		case 'boolean':
			return typeof v === 'boolean';
		case 'date-time':
			return typeof v === 'string' && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
		case 'date':
			return typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v));
		// Unexpanded: exactly {id} (the checks never ask for `expand`).
		case 'ref':
			return isObject(v) && keysAre(v, ['id']) && typeof v.id === 'string';
		case 'money':
			return (
				isObject(v) &&
				keysAre(v, ['amount', 'currency', 'formatted']) &&
				Number.isInteger(v.amount) &&
				typeof v.currency === 'string' &&
				/^[A-Z]{3}$/.test(v.currency) &&
				typeof v.formatted === 'string'
			);
		case 'array':
			return Array.isArray(v);
		case 'object':
			return isObject(v);
		case 'any':
			return true;
	}
}

/** Problems of one value against its documented type, `path` naming it. */
export function valueProblems(v: unknown, spec: FieldSpec, path: string): string[] {
	if (v === null) return spec.nullable ? [] : [`${path}: null, documented as ${typeName(spec)}`];
	const type = [spec.type].flat().find((candidate) => hasType(v, candidate));
	if (!type) return [`${path}: ${describe(v)}, documented as ${typeName(spec)}`];
	if (type === 'array' && spec.items)
		return (v as unknown[]).flatMap((item, i) => valueProblems(item, spec.items!, `${path}[${i}]`));
	if (type === 'object' && spec.fields) return objectProblems(v as Json, spec.fields, path);
	if (type === 'object' && spec.values) {
		return Object.entries(v as Json).flatMap(([key, member]) =>
			valueProblems(member, spec.values!, `${path}.${key}`),
		);
	}
	return [];
}

/** Problems of an object against documented members: one it should not have, one missing, one of the wrong type. */
export function objectProblems(v: Json, fields: Record<string, FieldSpec>, path = ''): string[] {
	const at = (name: string) => (path ? `${path}.${name}` : name);
	const out = Object.keys(v)
		.filter((name) => !(name in fields))
		.map((name) => `${at(name)}: not a documented field`);
	for (const [name, spec] of Object.entries(fields)) {
		const present = name in v;
		if (spec.when) {
			const expected = v[spec.when.field] === spec.when.equals;
			if (present !== expected) {
				const rule = `documented only when ${spec.when.field} is ${JSON.stringify(spec.when.equals)}`;
				out.push(
					`${at(name)}: ${present ? 'present' : 'missing'} while ${spec.when.field} is ${JSON.stringify(v[spec.when.field])} (${rule})`,
				);
				continue;
			}
		} else if (!present && !spec.optional) {
			out.push(`${at(name)}: documented field missing`);
			continue;
		}
		if (present) out.push(...valueProblems(v[name], spec, at(name)));
	}
	return out;
}

/** A schema as n8n's `__schema__` files hold it (scripts/schemaInference.ts). */
export interface JsonSchema {
	type: string | string[];
	nullable?: boolean;
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema | Record<string, never>;
}

/** The JSON types a documented type is written as in a schema. */
const JSON_TYPES: Record<FieldType, string[]> = {
	string: ['string'],
	'date-time': ['string'],
	date: ['string'],
	integer: ['number'],
	number: ['number'],
	boolean: ['boolean'],
	ref: ['object'],
	money: ['object'],
	object: ['object'],
	array: ['array'],
	any: ['string', 'number', 'boolean', 'object', 'array'],
};
const MEMBERS: Partial<Record<FieldType, string[]>> = {
	ref: ['id'],
	money: ['amount', 'currency', 'formatted'],
};

/**
 * The record kind a reference field points to, for webhook payloads: they embed the records a record refers to in
 * full ("related objects expanded", webhooks.md §3), one level deep. `creator` may also be an app or a token (a ref).
 */
const REF_KINDS: Record<string, string> = {
	assignee: 'staff',
	category: 'productCategory',
	contact: 'contact',
	contract_template: 'contractTemplate',
	coupon: 'coupon',
	creator: 'staff',
	deal: 'deal',
	invoice: 'invoice',
	line_items: 'orderLineItem',
	order: 'order',
	promotion: 'coupon',
	site: 'site',
	stage: 'dealStage',
	subscription: 'subscription',
	tenancy: 'tenancy',
	unit: 'unit',
	unit_allocation: 'unitAllocation',
	unit_allocations: 'unitAllocation',
	unit_type: 'unitType',
};

/**
 * Problems of a schema against a documented type: a property not documented, a type or a null not documented.
 * `refKind`: a reference here may be embedded in full, as a record of that kind.
 */
export function schemaProblems(
	schema: JsonSchema,
	spec: FieldSpec,
	path: string,
	refKind?: string,
): string[] {
	const types = [spec.type].flat();
	const embedded = Object.keys(schema.properties ?? {}).some((name) => name !== 'id');
	if (refKind && types.includes('ref') && embedded) {
		const record = DOCUMENTED.resources[refKind];
		return schemaProblems(schema, { ...spec, type: 'object', fields: record.fields }, path);
	}
	const out: string[] = [];
	const allowed = types.flatMap((type) => JSON_TYPES[type]);
	const named = [schema.type].flat().filter((type) => type !== 'null');
	if ((schema.type === 'null' || schema.nullable) && !spec.nullable)
		out.push(`${path}: nullable in the schema, documented as ${typeName(spec)}`);
	const wrong = named.filter((type) => !allowed.includes(type));
	if (wrong.length)
		out.push(`${path}: ${wrong.join(' or ')} in the schema, documented as ${typeName(spec)}`);
	for (const [name, property] of Object.entries(schema.properties ?? {})) {
		const at = `${path}.${name}`;
		const members = types.flatMap((type) => MEMBERS[type] ?? []);
		if (spec.fields) {
			if (name in spec.fields) out.push(...schemaProblems(property, spec.fields[name], at));
			else out.push(`${at}: in the schema, not a documented field`);
		} else if (spec.values) out.push(...schemaProblems(property, spec.values, at));
		else if (!members.includes(name) && !types.includes('any'))
			out.push(`${at}: in the schema, not a documented field`);
	}
	if (schema.items && 'type' in schema.items && spec.items)
		out.push(...schemaProblems(schema.items as JsonSchema, spec.items, `${path}[]`, refKind));
	return out;
}

/**
 * A record's schema against its resource's fields, both ways at the top: nothing undocumented, nothing documented left
 * out. `embedsRefs`: a webhook payload's record, whose references may hold the referenced records.
 */
export function recordSchemaProblems(
	schema: JsonSchema,
	fields: Record<string, FieldSpec>,
	embedsRefs = false,
): string[] {
	const properties = schema.properties ?? {};
	const out = schemaProblems({ ...schema, properties: {} }, { type: 'object', fields }, 'record');
	for (const [name, property] of Object.entries(properties)) {
		if (name in fields)
			out.push(
				...schemaProblems(property, fields[name], name, embedsRefs ? REF_KINDS[name] : undefined),
			);
		else out.push(`${name}: in the schema, not a documented field`);
	}
	for (const [name, spec] of Object.entries(fields)) {
		if (!spec.when && !spec.optional && !(name in properties))
			out.push(`${name}: documented, not in the schema`);
	}
	return out;
}
