import type { INodeParameters } from 'n8n-workflow';

import { rateLimits } from '../../nodes/Stora/transport/rateLimit/instance';
import type { RateLimitWindow } from '../../nodes/Stora/transport/rateLimit/policy';
import type { SandboxClient, StateRecord } from '../../sandbox/client';
import { useSandboxWithClients, type FixtureOptions } from '../../sandbox/test/fixture';
import type { StartedSandbox } from '../../sandbox';
import type { RateLimitOption } from '../../sandbox/core/ratelimit';
import { runStora, tokenCredentials, type RunOptions } from './n8n';

export type { StartedSandbox };

/**
 * The node's rate-limit budget for an account whose limits are `option`, as Stora's plan for it would set them: the
 * sandbox's own limits when it has any; with limits off, a budget high enough not to slow the suite (the documented
 * defaults are exercised by test/nodes/transport/rateLimit.pacing.test.ts and the reliability suite).
 */
function budgetFor(option: RateLimitOption | undefined): RateLimitWindow[] {
	if (option === undefined || option === 'off') return [{ limit: 1000, windowMs: 1000 }];
	const { perSecond, perMinute } = option === 'default' ? { perSecond: 10, perMinute: 60 } : option;
	return [
		{ limit: perSecond, windowMs: 1000 },
		{ limit: perMinute, windowMs: 60_000 },
	];
}

/**
 * The sandbox for tests of the node (run in n8n's engine by helpers/n8n.ts): `useSandboxWithClients`
 * (sandbox/test/fixture.ts), one sandbox per test file, reset to its seed with an empty request log and no queued
 * faults before each test, plus a Stora API credential for it and the node's process-wide rate-limit budget forgotten
 * and sized to the sandbox's limits. Call at the top of a `describe`; use `.sandbox`, `.client`, `.credentials()`
 * and `.run()` inside the tests.
 */
export function useSandboxForNode(options: FixtureOptions = {}) {
	const base = useSandboxWithClients({ seed: 'demo', ...options });
	beforeEach(() => {
		rateLimits.reset();
		rateLimits.configure({ limits: budgetFor(options.rateLimit) });
	});
	afterAll(() => rateLimits.reset());
	return {
		get sandbox(): StartedSandbox {
			return base.sandbox;
		},
		get client(): SandboxClient {
			return base.control;
		},
		/** A Stora API credential with the sandbox's all-scope token. */
		credentials: () => tokenCredentials(base.sandbox.url, base.sandbox.token),
		/** Runs the Stora node with `parameters` in n8n's engine (`runStora`) against the sandbox, with that credential. */
		run: async (
			parameters: INodeParameters,
			options: Omit<RunOptions, 'parameters' | 'credentials'> = {},
		) =>
			await runStora({
				...options,
				parameters,
				credentials: tokenCredentials(base.sandbox.url, base.sandbox.token),
			}),
	};
}

/**
 * What each test file of test/nodes/resources/ shares: `useSandboxForNode`, with a `client` that can be taken at the
 * top of a `describe` (each call goes to the file's sandbox, which starts before the tests), and before each test the
 * seed's records of `collections` read from the sandbox's state (`seed.deals`; reading it sends no API request, so
 * the request log stays empty).
 */
export function useResourceFixture<C extends string>(...collections: C[]) {
	const fixture = useSandboxForNode();
	const seed = {} as Record<C, StateRecord[]>;
	beforeEach(async () => {
		for (const name of collections) seed[name] = await fixture.client.state(name);
	});
	const client = new Proxy({} as SandboxClient, {
		get: (_target, key) => {
			const live = fixture.client as unknown as Record<string | symbol, unknown>;
			const value = live[key];
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(live)
				: value;
		},
	});
	return {
		client,
		seed,
		credentials: fixture.credentials,
		run: fixture.run,
		get sandbox(): StartedSandbox {
			return fixture.sandbox;
		},
	};
}
