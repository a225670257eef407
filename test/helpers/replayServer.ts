/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test harness under test/, never published */
/**
 * Answers HTTP requests with recorded responses, so a node can be run against answers taken from Stora's docs rather
 * than against our own emulator. Each recording answers one request; anything not recorded gets a 501 that says so.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedExchange {
	method: string;
	path: string;
	/** When given, the request's query must be exactly this (values as sent, i.e. strings). */
	query?: Record<string, string>;
	/** When given, the request's JSON body must deep-equal this. */
	requestBody?: unknown;
	status: number;
	/** Sent as they are: the server adds no header of its own besides Content-Type. */
	headers?: Record<string, string>;
	body?: unknown;
}

interface ReceivedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	/** The parsed JSON body, the raw text when it is not JSON, or undefined when empty. */
	body: unknown;
}

export interface ReplayServer {
	/** `http://127.0.0.1:<port>`, without a trailing slash. */
	url: string;
	/** Every request that reached the server, in order of arrival. */
	received: ReceivedRequest[];
	/** Recordings no request has used yet. */
	unused(): RecordedExchange[];
	close(): Promise<void>;
}

function parseBody(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/** Deep equality for JSON values (key order ignored), enough to match a request body against a recording. */
function sameJson(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	return keysA.every(
		(key) =>
			key in b &&
			sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
	);
}

function matches(recording: RecordedExchange, request: ReceivedRequest): boolean {
	if (recording.method.toUpperCase() !== request.method || recording.path !== request.path)
		return false;
	if (recording.query !== undefined && !sameJson(recording.query, request.query)) return false;
	if (recording.requestBody !== undefined && !sameJson(recording.requestBody, request.body))
		return false;
	return true;
}

/** Starts a server on 127.0.0.1 at a free port; recordings are used in order, each at most once. */
export async function startReplayServer(recordings: RecordedExchange[]): Promise<ReplayServer> {
	const used = new Set<number>();
	const received: ReceivedRequest[] = [];

	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const request: ReceivedRequest = {
				method: (req.method ?? 'GET').toUpperCase(),
				path: url.pathname,
				query: Object.fromEntries(url.searchParams.entries()),
				headers: req.headers,
				body: parseBody(Buffer.concat(chunks).toString('utf8')),
			};
			received.push(request);

			const index = recordings.findIndex(
				(recording, i) => !used.has(i) && matches(recording, request),
			);
			if (index < 0) {
				res.writeHead(501, { 'Content-Type': 'application/json' });
				res.end(
					JSON.stringify({
						error: {
							code: 'not_recorded',
							message: `The replay server has no recorded answer for ${request.method} ${url.pathname}${url.search}`,
						},
					}),
				);
				return;
			}
			used.add(index);
			const recording = recordings[index];
			res.writeHead(recording.status, {
				'Content-Type': 'application/json',
				...(recording.headers ?? {}),
			});
			res.end(recording.body === undefined ? '' : JSON.stringify(recording.body));
		});
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}`,
		received,
		unused: () => recordings.filter((_, i) => !used.has(i)),
		close: async () => {
			// Keep-alive sockets would hold close() open until they time out.
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) =>
				server.close((error) => (error ? reject(error) : resolve())),
			);
		},
	};
}
