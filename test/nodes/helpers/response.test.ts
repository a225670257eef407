/**
 * helpers/response.ts, reading an API answer as n8n hands it over: headers by any case, a list envelope's records and
 * next page, and a body that is not JSON refused with the status and what came instead.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { headerOf, jsonBodyOf, nextPageOf, recordsOf } from '../../../nodes/Stora/helpers/response';
import { storaNode } from '../../helpers/n8n';

const answer = (body: unknown, headers: IN8nHttpFullResponse['headers'] = {}) =>
	({ body, headers, statusCode: 200, statusMessage: 'OK' }) as IN8nHttpFullResponse;

describe('response', () => {
	it('reads a header by any case, the first of repeated ones, and undefined when absent', () => {
		const response = answer({}, { 'ratelimit-remaining': 7, 'set-cookie': ['a=1', 'b=2'] });
		expect(headerOf(response, 'RateLimit-Remaining')).toBe('7');
		expect(headerOf(response, 'set-cookie')).toBe('a=1');
		expect(headerOf(response, 'retry-after')).toBeUndefined();
		expect(
			headerOf({ body: {}, statusCode: 204, headers: undefined } as never, 'x'),
		).toBeUndefined();
	});

	it("takes a list envelope's records whatever the list is called, and its next page number", () => {
		const page = {
			unit_types: [{ id: 'utype_1' }],
			meta: { pagination: { next: 3, count: 41 } },
		};
		expect(recordsOf(page)).toEqual([{ id: 'utype_1' }]);
		expect(nextPageOf(page)).toBe(3);
		expect(recordsOf({ meta: {} })).toEqual([]);
		expect(nextPageOf({ sites: [], meta: { pagination: { next: null } } })).toBeUndefined();
		expect(nextPageOf({ sites: [] })).toBeUndefined();
	});

	it('gives a JSON body as it is, and refuses text or bytes naming the status and what came', () => {
		const node = storaNode({ resource: 'site', operation: 'get' });
		expect(jsonBodyOf(node, answer({ site: { id: 'site_1' }, meta: {} }))).toEqual({
			site: { id: 'site_1' },
			meta: {},
		});
		for (const body of ['<html>Bad gateway</html>', Buffer.from('<html>Bad gateway</html>')]) {
			const refused = (() => {
				try {
					jsonBodyOf(node, { ...answer(body), statusCode: 502 });
				} catch (error) {
					return error;
				}
			})();
			expect(refused).toBeInstanceOf(NodeApiError);
			expect(refused).toMatchObject({
				message: 'Stora answered with a body that is not JSON',
				description: 'HTTP 502: <html>Bad gateway</html>',
				httpCode: '502',
			});
		}
	});
});
