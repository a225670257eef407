/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool under test/, never published */
/**
 * Test support for the CRM jest suites (test/sandbox/crm*.test.ts): a tiny HTTP client over the sandbox's API
 * and control plane. Not used by the sandbox itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Res {
	status: number;
	headers: Headers;
	text: string;
	body: Json;
}

export interface CallOptions {
	token?: string;
	accept?: string;
	body?: unknown;
}

/** Calls the sandbox API with the given (default: all-scope) token. */
export function client(url: string, defaultToken: string) {
	const call = async (method: string, path: string, options: CallOptions = {}): Promise<Res> => {
		const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? defaultToken}` };
		if (options.accept) headers.Accept = options.accept;
		if (options.body !== undefined) headers['Content-Type'] = 'application/json';
		const response = await fetch(`${url}${path}`, {
			method,
			headers,
			body: options.body === undefined ? undefined : JSON.stringify(options.body),
		});
		const text = await response.text();
		let body: Json = undefined;
		try {
			body = text ? JSON.parse(text) : undefined;
		} catch {
			body = undefined;
		}
		return { status: response.status, headers: response.headers, text, body };
	};
	return {
		call,
		get: (path: string, options?: CallOptions) => call('GET', path, options),
		post: (path: string, body?: unknown, options?: CallOptions) => call('POST', path, { ...options, body }),
		patch: (path: string, body?: unknown, options?: CallOptions) => call('PATCH', path, { ...options, body }),
		del: (path: string, options?: CallOptions) => call('DELETE', path, options),
		/** Records of a collection in stored order, as the control plane renders them. */
		state: async (collection: string): Promise<Json[]> =>
			((await (await fetch(`${url}/__sandbox/state/${collection}`)).json()) as Record<string, Json[]>)[collection],
		/** A static token with exactly these scopes. */
		token: async (scopes: string[]): Promise<string> =>
			(
				(await (
					await fetch(`${url}/__sandbox/tokens`, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({ scopes }),
					})
				).json()) as { access_token: string }
			).access_token,
		reset: async (seed = 'demo') => {
			await fetch(`${url}/__sandbox/reset`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ seed }),
			});
		},
	};
}

export type Client = ReturnType<typeof client>;

/** A local webhook receiver answering 200 and keeping every event it got. */
export async function webhookReceiver(): Promise<{ url: string; events: Json[]; close(): Promise<void> }> {
	const events: Json[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			try {
				events.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: Json }).event);
			} catch {
				events.push(null);
			}
			res.writeHead(200).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hooks`,
		events,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
