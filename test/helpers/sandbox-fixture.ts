import { startSandbox, type SandboxOptions } from '../sandbox';
import { tokenCredentials } from './n8n';
import { SandboxClient } from './sandbox-client';

export type StartedSandbox = Awaited<ReturnType<typeof startSandbox>>;

/**
 * One sandbox per test file, reset to its seed with an empty request log and no queued faults before each test.
 * Call at the top of a `describe`; read `.sandbox`, `.client` and `.credentials()` inside the tests.
 */
export function useSandbox(options: SandboxOptions = {}) {
	const fixture = {
		sandbox: undefined as unknown as StartedSandbox,
		client: undefined as unknown as SandboxClient,
		/** A Stora API credential with the sandbox's all-scope token. */
		credentials: () => tokenCredentials(fixture.sandbox.url, fixture.sandbox.token),
	};
	beforeAll(async () => {
		fixture.sandbox = await startSandbox({ seed: 'demo', ...options });
		fixture.client = new SandboxClient(fixture.sandbox.url);
	});
	afterAll(async () => await fixture.sandbox.close());
	beforeEach(async () => {
		fixture.sandbox.core.onApiRequest = undefined;
		await fixture.client.reset(options.seed ?? 'demo');
		await fixture.client.clearRequests();
		await fixture.client.clearFaults();
	});
	return fixture;
}
