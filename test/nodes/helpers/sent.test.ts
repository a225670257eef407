/**
 * helpers/sent.ts: a check reads the value RoutingNode put into the request for a property, where it put it as the
 * parameter's own value; anywhere else the check has to read the parameter itself.
 */
import type { IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { NOT_SENT, sentValue } from '../../../nodes/Stora/helpers/sent';
import { runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

const request = (body: object, qs: object = {}) => ({ url: '/x', body, qs }) as IHttpRequestOptions;
const sending = (send: NonNullable<INodeProperties['routing']>['send']) => ({ routing: { send } });

describe('sentValue', () => {
	it('reads a body member, by its dotted path unless told it is literal', () => {
		const options = request({ email: 'a@example.com', address: { city: 'Leeds' }, 'a.b': 1 });
		expect(sentValue(options, sending({ type: 'body', property: 'email' }))).toBe('a@example.com');
		expect(sentValue(options, sending({ type: 'body', property: 'address.city' }))).toBe('Leeds');
		expect(
			sentValue(options, sending({ type: 'body', property: 'a.b', propertyInDotNotation: false })),
		).toBe(1);
	});

	it('reads a query member where the routing sends to the query (its default)', () => {
		const options = request({ status: 'body' }, { status: 'open' });
		expect(sentValue(options, sending({ property: 'status' }))).toBe('open');
		expect(sentValue(options, sending({ type: 'query', property: 'status' }))).toBe('open');
	});

	it('keeps an empty value as sent, so a required field that came out empty is seen as empty', () => {
		expect(sentValue(request({ email: '' }), sending({ type: 'body', property: 'email' }))).toBe(
			'',
		);
	});

	it('answers NOT_SENT where the request does not carry the parameter’s own value', () => {
		const options = request({ email: 'a@example.com', name: null });
		for (const property of [
			{},
			sending({ type: 'body' }),
			sending({ type: 'body', property: 'missing' }),
			sending({ type: 'body', property: 'email.inner' }),
			sending({ type: 'body', property: '={{ "email" }}' }),
			sending({ type: 'body', property: 'name', value: '={{ $value === "" ? null : $value }}' }),
		])
			expect(sentValue(options, property)).toBe(NOT_SENT);
	});
});

describe('checks that read what is sent', () => {
	const fixture = useSandboxForNode();

	it('refuses an email from an expression that is not an address, and one that came out empty', async () => {
		const run = async (email: string) =>
			await runStora({
				credentials: fixture.credentials(),
				parameters: { resource: 'contact', operation: 'create', email: '={{ $json.email }}' },
				items: [{ email }],
			});
		expect((await run('not-an-address')).error?.message).toBe(
			'Email: "not-an-address" is not an email address',
		);
		expect((await run('')).error?.message).toBe(
			'Email is empty for item 0: its expression gave no value',
		);
		expect(await fixture.client.requests()).toHaveLength(0);
	});
});
