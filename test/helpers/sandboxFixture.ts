import { rateLimits, type RateLimitWindow } from '../../nodes/Stora/transport/rateLimit';
import type { SandboxClient } from '../sandbox/client';
import { useSandbox as useSandboxFixture, type FixtureOptions } from '../sandbox/fixture';
import type { StartedSandbox } from '../sandbox';
import type { RateLimitOption } from '../sandbox/core/ratelimit';
import { tokenCredentials } from './n8n';

export type { StartedSandbox };

/**
 * The node's rate-limit budget for an account whose limits are `option`, as Stora's plan for it would set them: the
 * sandbox's own limits when it has any; with limits off, a budget high enough not to slow the suite (the documented
 * defaults are exercised by test/nodes/rateLimit.test.ts and the reliability suite).
 */
export function budgetFor(option: RateLimitOption | undefined): RateLimitWindow[] {
	if (option === undefined || option === 'off') return [{ limit: 1000, windowMs: 1000 }];
	const { perSecond, perMinute } = option === 'default' ? { perSecond: 10, perMinute: 60 } : option;
	return [
		{ limit: perSecond, windowMs: 1000 },
		{ limit: perMinute, windowMs: 60_000 },
	];
}

/**
 * The sandbox fixture (test/sandbox/fixture.ts) for node tests: one sandbox per test file, reset to its seed with an
 * empty request log and no queued faults before each test, and the node's process-wide rate-limit budget forgotten
 * and sized to the sandbox's limits. Call at the top of a `describe`; read `.sandbox`, `.client` and
 * `.credentials()` inside the tests.
 */
export function useSandbox(options: FixtureOptions = {}) {
	const base = useSandboxFixture({ seed: 'demo', ...options });
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
	};
}
