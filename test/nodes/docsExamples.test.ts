/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The node against Stora's documented answers rather than our emulator: each fixture in test/fixtures/docs is a
 * one-node workflow export plus the answers the docs' examples show, replayed by a local server. The test checks the
 * node sent exactly the recorded requests and turned the answers into the expected items (or error).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeParameters } from 'n8n-workflow';

import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import { runStora, tokenCredentials } from '../helpers/n8n';
import {
	startReplayServer,
	type RecordedExchange,
	type ReplayServer,
} from '../helpers/replayServer';

interface DocsFixture {
	name: string;
	source: string;
	nodes: Array<{ name: string; type: string; typeVersion: number; parameters: INodeParameters }>;
	connections: Record<string, unknown>;
	recorded: RecordedExchange[];
	expected?: unknown[];
	expectedError?: { message: string; httpCode?: string; descriptionIncludes: string[] };
}

const FIXTURES = join(__dirname, '..', 'fixtures', 'docs');
const TOKEN = 'tok_docs_example';

const files = readdirSync(FIXTURES)
	.filter((file) => file.endsWith('.json'))
	.sort();

function load(file: string): DocsFixture {
	return JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as DocsFixture;
}

describe("Stora node against the answers in Stora's docs", () => {
	let server: ReplayServer | undefined;

	beforeEach(() => {
		// The budget is process-wide: start each case from a fresh one, large enough not to slow the suite.
		rateLimits.reset();
		rateLimits.configure({ limits: [{ limit: 1000, windowMs: 1000 }] });
	});

	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	afterAll(() => rateLimits.reset());

	it('has fixtures to run', () => {
		// An empty or misplaced folder would otherwise pass silently.
		expect(files.length).toBeGreaterThanOrEqual(6);
	});

	it.each(files)('%s', async (file) => {
		const fixture = load(file);
		// A fixture must say either what comes out or how it fails, never both.
		expect(
			Number(fixture.expected !== undefined) + Number(fixture.expectedError !== undefined),
		).toBe(1);
		const storaNodes = fixture.nodes.filter((node) => node.type === 'n8n-nodes-stora.stora');
		expect(storaNodes).toHaveLength(1);

		server = await startReplayServer(fixture.recorded);
		const result = await runStora({
			credentials: tokenCredentials(server.url, TOKEN),
			parameters: storaNodes[0].parameters,
		});

		// Exactly the recorded requests, in order, each with the credential's token.
		expect(
			server.received.map((request) => ({ method: request.method, path: request.path })),
		).toEqual(
			fixture.recorded.map((recording) => ({ method: recording.method, path: recording.path })),
		);
		fixture.recorded.forEach((recording, index) => {
			const request = server!.received[index];
			if (recording.query !== undefined) expect(request.query).toEqual(recording.query);
			if (recording.requestBody !== undefined) expect(request.body).toEqual(recording.requestBody);
			expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
		});
		expect(server.unused()).toEqual([]);

		if (fixture.expectedError) {
			expect(result.items).toEqual([]);
			expect(result.error).toBeDefined();
			expect(result.error?.message).toBe(fixture.expectedError.message);
			if (fixture.expectedError.httpCode !== undefined) {
				expect((result.error as { httpCode?: string }).httpCode).toBe(
					fixture.expectedError.httpCode,
				);
			}
			const lines = String(result.error?.description ?? '').split('\n');
			for (const line of fixture.expectedError.descriptionIncludes) expect(lines).toContain(line);
		} else {
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual(fixture.expected);
		}
	});
});
