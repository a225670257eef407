/**
 * Declarative request-body validation shared by every resource module. Every problem becomes one
 * `invalid_content` detail with a JSON pointer (`/email`, `/address/city`); unknown members are rejected
 * (the API's objects are closed). Nothing is applied when validation fails.
 */
export type FieldType =
	| {
			type: 'string';
			enum?: string[];
			format?: 'email' | 'date' | 'date-time' | 'url';
			pattern?: RegExp;
			minLength?: number;
	  }
	| { type: 'integer'; min?: number; max?: number }
	| { type: 'number'; min?: number; max?: number; exclusiveMin?: number; notZero?: boolean }
	| { type: 'boolean' }
	| { type: 'ref'; prefix: string }
	| { type: 'object'; fields: Schema; open?: boolean }
	| { type: 'array'; items: FieldSpec }
	| { type: 'metadata' }
	| { type: 'any' };

export type FieldSpec = FieldType & { required?: boolean; nullable?: boolean };
export type Schema = Record<string, FieldSpec>;

import { invalidContent } from './errors';
import type { ErrorDetail } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Validates `body` against `schema`; returns it typed as a plain object or throws 422 `invalid_content`. */
export function validateBody(body: unknown, schema: Schema): Record<string, unknown> {
	const details: ErrorDetail[] = [];
	if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw invalidContent([{ message: 'The request body must be a JSON object', pointer: null }]);
	}
	checkObject(body as Record<string, unknown>, schema, '', false, details);
	if (details.length) throw invalidContent(details);
	return body as Record<string, unknown>;
}

function checkObject(
	value: Record<string, unknown>,
	schema: Schema,
	base: string,
	open: boolean,
	details: ErrorDetail[],
) {
	for (const [name, spec] of Object.entries(schema)) {
		if (spec.required && value[name] === undefined) {
			details.push({
				message: base
					? `The object at ${base} is missing the required property '${name}'`
					: `The root object is missing the required property '${name}'`,
				pointer: base ? base : null,
			});
		}
	}
	for (const [name, member] of Object.entries(value)) {
		const spec = schema[name];
		const pointer = `${base}/${name}`;
		if (!spec) {
			if (!open) details.push({ message: `The property '${name}' is not allowed`, pointer });
			continue;
		}
		checkValue(member, spec, pointer, details);
	}
}

function checkValue(value: unknown, spec: FieldSpec, pointer: string, details: ErrorDetail[]) {
	if (value === null) {
		if (!spec.nullable)
			details.push({ message: `The value at ${pointer} must not be null`, pointer });
		return;
	}
	const fail = (what: string) =>
		details.push({ message: `The value at ${pointer} ${what}`, pointer });
	switch (spec.type) {
		case 'any':
			return;
		case 'string':
			if (typeof value !== 'string') return fail('must be a string');
			if (spec.enum && !spec.enum.includes(value))
				return fail(`must be one of: ${spec.enum.join(', ')}`);
			if (spec.minLength !== undefined && value.length < spec.minLength)
				return fail(`must not be blank`);
			if (spec.format === 'email' && !EMAIL.test(value))
				return fail('must be a valid email address');
			if (spec.format === 'date' && (!DATE.test(value) || isNaN(Date.parse(value))))
				return fail('must be a date (YYYY-MM-DD)');
			if (spec.format === 'date-time' && isNaN(Date.parse(value)))
				return fail('must be an ISO 8601 date-time');
			if (spec.format === 'url' && !/^https?:\/\/\S+$/.test(value)) return fail('must be a URL');
			if (spec.pattern && !spec.pattern.test(value))
				return fail(`must match ${spec.pattern.source}`);
			return;
		case 'integer':
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value))
				return fail(`must be a ${spec.type}`);
			if (spec.type === 'integer' && !Number.isInteger(value)) return fail('must be an integer');
			if (spec.min !== undefined && value < spec.min)
				return fail(`must be greater than or equal to ${spec.min}`);
			if (spec.max !== undefined && value > spec.max)
				return fail(`must be less than or equal to ${spec.max}`);
			if (spec.type === 'number' && spec.exclusiveMin !== undefined && value <= spec.exclusiveMin)
				return fail(`must be greater than ${spec.exclusiveMin}`);
			if (spec.type === 'number' && spec.notZero && value === 0) return fail('must not be zero');
			return;
		case 'boolean':
			if (typeof value !== 'boolean') return fail('must be a boolean');
			return;
		case 'ref':
			if (typeof value !== 'object' || Array.isArray(value))
				return fail("must be an object with an 'id'");
			{
				const id = (value as Record<string, unknown>).id;
				const extra = Object.keys(value as object).filter((k) => k !== 'id');
				if (typeof id !== 'string')
					return details.push({
						message: `The object at ${pointer} is missing the required property 'id'`,
						pointer,
					});
				if (!id.startsWith(spec.prefix))
					return details.push({
						message: `The value at ${pointer}/id must start with '${spec.prefix}'`,
						pointer: `${pointer}/id`,
					});
				for (const k of extra)
					details.push({
						message: `The property '${k}' is not allowed`,
						pointer: `${pointer}/${k}`,
					});
			}
			return;
		case 'object':
			if (typeof value !== 'object' || Array.isArray(value)) return fail('must be an object');
			return checkObject(
				value as Record<string, unknown>,
				spec.fields,
				pointer,
				!!spec.open,
				details,
			);
		case 'array':
			if (!Array.isArray(value)) return fail('must be an array');
			value.forEach((item, i) => checkValue(item, spec.items, `${pointer}/${i}`, details));
			return;
		case 'metadata':
			if (typeof value !== 'object' || Array.isArray(value))
				return fail('must be an object of string values');
			for (const [k, v] of Object.entries(value as object)) {
				if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
					details.push({
						message: `The metadata value '${k}' must be a string, number or boolean`,
						pointer: `${pointer}/${k}`,
					});
			}
			return;
	}
}
