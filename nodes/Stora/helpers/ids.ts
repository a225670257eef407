/** Record IDs: their pattern, and the checks that name the field before any request when an ID is of the wrong kind. */
import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { RECORDS } from './records';
import { argumentOf, kindOfArgument, runsAsTool } from './tool';
import { article, fail, failEmpty, isEmptyValue, type PreSend, shown } from './validation';

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The pattern of a record ID: one of the API's prefixes (`con_`, `site_`, ...) followed by letters or digits. */
export function idPattern(prefixes: string | readonly string[]): string {
	return `^(?:${(typeof prefixes === 'string' ? [prefixes] : prefixes).join('|')})[A-Za-z0-9]+$`;
}

/** Whether `id` is the ID of a record of a kind `prefixes` stands for. */
export function isIdOf(id: string, prefixes: string | readonly string[]): boolean {
	return new RegExp(idPattern(prefixes)).test(id);
}

/** The IDs of a multi-select or a comma-separated text (an expression may give either), trimmed, blanks dropped. */
export function idsOf(raw: unknown): string[] {
	const asText = (value: unknown) =>
		typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return [asText(raw)];
	return (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((id) => asText(id).trim())
		.filter((id) => id !== '');
}

/**
 * The record ID in `parameter`, trimmed, after checking it against the API's prefix before any request, so a pasted
 * contact ID in a site field fails with a message naming the parameter instead of a 404 from Stora. A field that may
 * reference records of several kinds (a note on a contact, unit, subscription or task) gives several prefixes.
 * Undefined for an empty optional field.
 */
export function checkedId(
	context: IExecuteSingleFunctions,
	parameter: string,
	fieldLabel: string,
	prefixes: string | readonly string[],
	optional = false,
	/** The field offers a list to pick from (a resource locator or dropdown); a plain ID field does not. */
	fromList = true,
): string | undefined {
	let label = fieldLabel;
	let list = typeof prefixes === 'string' ? [prefixes] : [...prefixes];
	// A model's argument named for one kind (`contactId` into a task's linked record) takes only that kind.
	const named = runsAsTool(context)
		? kindOfArgument(argumentOf(context.getNode(), parameter))
		: undefined;
	if (named && list.length > 1 && list.includes(RECORDS[named].prefix)) {
		list = [RECORDS[named].prefix];
		label = RECORDS[named].displayName;
	}
	const value = context.getNodeParameter(parameter, '', { extractValue: true }) as
		| string
		| undefined;
	if (isEmptyValue(value)) {
		if (optional) return undefined;
		failEmpty(context, parameter, label);
	}
	const id = typeof value === 'string' ? value.trim() : '';
	if (isIdOf(id, list)) return id;
	const checked = { path: parameter, label };
	// A model cannot pick from a list: it needs the ID as another tool's answer gave it.
	const where = runsAsTool(context)
		? 'Use the ID as a Stora answer gives it (the "id" of the record).'
		: fromList
			? 'Pick the record from the list or paste its ID.'
			: 'Paste the ID as Stora shows it.';
	if (list.length === 1) {
		fail(
			context,
			`${label}: ${shown(typeof value === 'string' ? id : value)} is not ${article(label)} ${label.toLowerCase()} ID`,
			`${capitalize(article(label))} ${label.toLowerCase()} ID starts with "${list[0]}" (for example ${list[0]}a1b2c3). ${where}`,
			checked,
		);
	}
	fail(
		context,
		`${label}: ${shown(typeof value === 'string' ? id : value)} is not a valid ID here`,
		`The ID must start with one of ${list.map((prefix) => `"${prefix}"`).join(', ')} (for example ${list[0]}a1b2c3).`,
		checked,
	);
}

/** `checkedId` as a field's preSend. */
export function checkId(
	parameter: string,
	label: string,
	prefixes: string | readonly string[],
	optional = false,
	fromList = true,
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		checkedId(this, parameter, label, prefixes, optional, fromList);
		return options;
	};
}

/**
 * Checks every ID of a list filter against the prefixes before any request, so a site ID pasted into a contact
 * filter fails instead of matching nothing. `unspecified` lets the API's own "unspecified" (no such reference) through.
 */
export function checkIdList(
	parameter: string,
	label: string,
	prefixes: readonly string[],
	unspecified = false,
): PreSend {
	return async function (this: IExecuteSingleFunctions, options) {
		const bad = idsOf(this.getNodeParameter(parameter, [])).find(
			(id) => !(unspecified && id === 'unspecified') && !isIdOf(id, prefixes),
		);
		if (bad !== undefined) {
			const starts =
				prefixes.length === 1
					? `start with "${prefixes[0]}"`
					: `start with one of ${prefixes.map((prefix) => `"${prefix}"`).join(', ')}`;
			fail(
				this,
				`${label}: "${bad}" is not a valid ID`,
				`Each ID must ${starts} (for example ${prefixes[0]}a1b2c3)${unspecified ? ', or be "unspecified"' : ''}; separate several with commas.`,
				{ path: parameter, label },
			);
		}
		return options;
	};
}
