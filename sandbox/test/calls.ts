/**
 * What the sandbox's suites send and how they read the answers, beside the fixture (fixture.ts): pages of a list
 * endpoint, an expected error, and the body and modules of the webhook endpoint suites. Not part of the sandbox
 * build (it uses jest's globals).
 */
import { invoicesModule, widgetsModule } from '../core/testing';
import { webhookEndpoints } from '../resources/integration/webhookEndpoints';
import type { SandboxFixture } from './fixture';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `list`: the records of one page of a list endpoint (200 expected); `all`: every record of it (all pages). */
export function pages(fx: SandboxFixture) {
	const list = async (path: string): Promise<Json[]> => {
		const { status, body } = await fx.call('GET', path);
		expect(status).toBe(200);
		const key = Object.keys(body).find((k) => k !== 'meta')!;
		return body[key] as Json[];
	};

	/** Every record of a list endpoint (all pages). */
	async function all(path: string): Promise<Json[]> {
		const out: Json[] = [];
		for (let page = 1; ; page++) {
			const { body } = await fx.call(
				'GET',
				`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`,
			);
			const key = Object.keys(body).find((k) => k !== 'meta')!;
			out.push(...(body[key] as Json[]));
			if (body.meta.pagination.next === null) return out;
		}
	}

	return { list, all };
}

export const expectError = (
	response: { status: number; body: Json },
	status: number,
	code: string,
) => {
	expect(response.status).toBe(status);
	expect(response.body.error.code).toBe(code);
	return response.body.error as Json;
};

/** The modules of the webhook suites: the test widgets and invoices (events to send) and the real webhook endpoints. */
export const webhookModules = [widgetsModule, invoicesModule, webhookEndpoints];

export const endpointBody = (url: string, extra: Record<string, unknown> = {}) => ({
	name: 'My receiver',
	api_version: '2025-09',
	url,
	event_types: ['invoice.paid', 'invoice.created'],
	...extra,
});
