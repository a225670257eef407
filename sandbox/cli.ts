/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev tool, never published */
/* eslint-disable no-console */
/**
 * `npm run sandbox -- [--port 4010] [--seed demo|empty] [--allow-http-webhooks]
 *                     [--rate-limit off|default|<n>/s,<m>/min] [--latency <ms>]
 *                     [--unknown-params accept|ignore|reject] [--headers full|documented]
 *                     [--retry-timestamp fresh|first]`
 * Starts the Stora API sandbox on 127.0.0.1 and prints its base URL, an all-scope access token and the
 * seeded OAuth client. Stops cleanly on SIGINT / SIGTERM.
 */
import {
	HEADERS_MODES,
	UNKNOWN_PARAMS_MODES,
	type HeadersMode,
	type UnknownParamsMode,
} from './core/documented';
import type { RateLimitOption } from './core/ratelimit';
import { RETRY_TIMESTAMP_MODES, type RetryTimestamp } from './core/webhooks';
import { startSandbox } from './index';

const USAGE = `Usage: npm run sandbox -- [options]
  --port <n>                 port on 127.0.0.1 (default 4010)
  --seed <name>              demo (default) or empty
  --allow-http-webhooks      accept http:// webhook endpoint URLs
  --rate-limit <spec>        off | default (10/s, 60/min) | <n>/s,<m>/min  (default: default)
  --latency <ms>             added delay per API request (default 0)
  --unknown-params <mode>    query parameters and body members the API's docs do not list:
                               accept (default)  the sandbox's own filters, sorts and members work
                               ignore            dropped silently, as if never sent
                               reject            422 invalid_url_param / invalid_content naming them
  --headers <mode>           full (default): RateLimit-Limit, -Remaining, -Reset, Retry-After on 429;
                             documented: only RateLimit-Limit and RateLimit-Reset
  --retry-timestamp <mode>   the t a retried webhook delivery is signed with (Stora's docs do not say):
                               fresh (default)   each attempt's own send time
                               first             the first attempt's
All three modes can be switched while running:
  POST /__sandbox/config {"unknown_params": "...", "headers": "...", "retry_timestamp": "..."}`;

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

export function parseRateLimit(spec: string): RateLimitOption {
	if (spec === 'off' || spec === 'default') return spec;
	const match = /^(\d+)\/s,(\d+)\/min$/.exec(spec.replace(/\s+/g, ''));
	if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) fail(`Invalid --rate-limit: ${spec}`);
	return { perSecond: Number(match[1]), perMinute: Number(match[2]) };
}

function oneOf<T extends string>(flag: string, value: string, allowed: T[]): T {
	return allowed.includes(value as T)
		? (value as T)
		: fail(`${flag} must be one of ${allowed.join(', ')}, got ${value}`);
}

export function parseArgs(argv: string[]) {
	const options = {
		port: 4010,
		seed: 'demo',
		allowHttpWebhooks: false,
		rateLimit: 'default' as RateLimitOption,
		latencyMs: 0,
		unknownParams: 'accept' as UnknownParamsMode,
		headers: 'full' as HeadersMode,
		retryTimestamp: 'fresh' as RetryTimestamp,
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const [flag, inline] = arg.includes('=')
			? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
			: [arg, undefined];
		const value = () => inline ?? argv[++i] ?? fail(`Missing value for ${flag}`);
		const int = (v: string) =>
			/^\d+$/.test(v) ? Number(v) : fail(`${flag} needs a non-negative integer, got ${v}`);
		switch (flag) {
			case '--port':
				options.port = int(value());
				break;
			case '--seed':
				options.seed = value();
				break;
			case '--allow-http-webhooks':
				options.allowHttpWebhooks = true;
				break;
			case '--rate-limit':
				options.rateLimit = parseRateLimit(value());
				break;
			case '--latency':
				options.latencyMs = int(value());
				break;
			case '--unknown-params':
				options.unknownParams = oneOf(flag, value(), UNKNOWN_PARAMS_MODES);
				break;
			case '--headers':
				options.headers = oneOf(flag, value(), HEADERS_MODES);
				break;
			case '--retry-timestamp':
				options.retryTimestamp = oneOf(flag, value(), [...RETRY_TIMESTAMP_MODES]);
				break;
			case '--help':
			case '-h':
				console.log(USAGE);
				process.exit(0);
				break;
			default:
				fail(`Unknown option: ${arg}`);
		}
	}
	return options;
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox(options);
	sandbox.core.webhooks.retryTimestamp = options.retryTimestamp;
	const client = sandbox.core.defaultClient();
	console.log(`Stora API sandbox (2025-09) listening on ${sandbox.url}`);
	console.log('');
	console.log(`  Base URL:       ${sandbox.url}`);
	console.log(`  Access token:   ${sandbox.token}   (all scopes, never expires)`);
	console.log(`  OAuth client:   client_id=${client.clientId}`);
	console.log(`                  client_secret=${client.clientSecret}`);
	console.log(`                  redirect URIs: ${client.redirectUris.join(', ')}`);
	console.log(`  Token URL:      ${sandbox.url}/oauth2/token`);
	console.log(`  Authorize URL:  ${sandbox.url}/oauth2/authorize`);
	console.log(
		`  Seed: ${options.seed}   Rate limit: ${JSON.stringify(options.rateLimit)}   Latency: ${options.latencyMs} ms   http webhooks: ${options.allowHttpWebhooks ? 'allowed' : 'rejected'}`,
	);
	console.log(
		`  Unknown params: ${options.unknownParams}   Headers: ${options.headers}   Retry timestamp: ${options.retryTimestamp}`,
	);
	console.log(
		`  Control plane:  ${sandbox.url}/__sandbox  (reset, tokens, faults, requests, deliveries, events, config)`,
	);
	console.log('');
	console.log('Press Ctrl+C to stop.');

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the sandbox...`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
