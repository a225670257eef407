import { useSandbox as useSandboxFixture } from '../sandbox/fixture';
import type { SandboxOptions, StartedSandbox } from '../sandbox';
import { tokenCredentials } from './n8n';
import type { SandboxClient } from './sandbox-client';

export type { StartedSandbox };

/**
 * The sandbox fixture (test/sandbox/fixture.ts) for node tests: one sandbox per test file, reset to its seed with an
 * empty request log and no queued faults before each test. Call at the top of a `describe`; read `.sandbox`,
 * `.client` and `.credentials()` inside the tests.
 */
export function useSandbox(options: SandboxOptions = {}) {
	const base = useSandboxFixture({ seed: 'demo', ...options });
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
