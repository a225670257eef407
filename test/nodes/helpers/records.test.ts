/**
 * helpers/records.ts, the table of record kinds: one prefix per kind, and the kind a record parameter holds by the
 * naming rule (the descriptions' names checked against the rule: parameterNames.test.ts).
 */
import {
	ID_PREFIXES,
	RECORDS,
	recordKindOfParameter,
	recordOf,
} from '../../../nodes/Stora/helpers/records';

describe('records', () => {
	it('gives every kind its own ID prefix, ending in an underscore', () => {
		const prefixes = Object.values(ID_PREFIXES);
		expect(prefixes).toHaveLength(Object.keys(RECORDS).length);
		expect(new Set(prefixes).size).toBe(prefixes.length);
		for (const prefix of prefixes) expect(prefix).toMatch(/^[a-z]+_$/);
		expect(ID_PREFIXES.webhookEndpoint).toBe(recordOf('webhookEndpoint').prefix);
	});

	it("reads a record parameter's kind from its name: <resource>Id and <resource><Kind>Id, nothing else", () => {
		expect(recordKindOfParameter('deal', 'dealId')).toBe('deal');
		expect(recordKindOfParameter('deal', 'dealContactId')).toBe('contact');
		expect(recordKindOfParameter('orderLineItem', 'orderLineItemOrderId')).toBe('order');
		expect(recordKindOfParameter('dealStage', 'dealStageId')).toBe('dealStage');
		// A resource that is not a kind of record, a link to one of several kinds, another resource's name, no ID.
		expect(recordKindOfParameter('orderLineItem', 'orderLineItemId')).toBeUndefined();
		expect(recordKindOfParameter('note', 'noteRecordId')).toBeUndefined();
		expect(recordKindOfParameter('deal', 'contactId')).toBeUndefined();
		expect(recordKindOfParameter('deal', 'dealContact')).toBeUndefined();
	});
});
