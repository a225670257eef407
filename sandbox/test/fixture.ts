/**
 * The jest fixture for suites that talk to a running sandbox over HTTP (the sandbox's own tests; the node's tests
 * use it through `useSandboxForNode`, test/helpers/sandboxFixture.ts): call `useSandboxWithClients()` at the top
 * of a file or a `describe`; it starts a sandbox on a free port before the tests, resets it to its seed (and its
 * modes to the given ones) before each test, and closes it afterwards. Read `.sandbox`, `.call`, `.api` and
 * `.control` inside the tests. Not part of the sandbox build (it uses jest's globals).
 */
import { apiClient, client, SandboxClient, type ApiClient, type Call, type ClientOptions } from '../client';
import { startSandbox, type SandboxOptions, type StartedSandbox } from '../index';

export interface FixtureOptions extends SandboxOptions {
	/**
	 * Reset before each test (seed, request log, faults, modes). Default true; suites whose tests build on each
	 * other's state (a webhook endpoint registered once, an order created then finalized) turn it off.
	 */
	resetEach?: boolean;
	/** How `call` and `api` treat redirects and answers that are not JSON. */
	client?: ClientOptions;
}

export interface SandboxFixture {
	sandbox: StartedSandbox;
	/** API calls with the sandbox's all-scope token. */
	call: Call;
	/** `call` with per-verb shorthands and the control plane. */
	api: ApiClient;
	/** The control plane. */
	control: SandboxClient;
}

export function useSandboxWithClients(options: FixtureOptions = {}): SandboxFixture {
	const { resetEach = true, client: clientOptions, ...sandboxOptions } = options;
	const fixture = {} as SandboxFixture;
	beforeAll(async () => {
		fixture.sandbox = await startSandbox(sandboxOptions);
		fixture.call = client(fixture.sandbox.url, fixture.sandbox.token, clientOptions);
		fixture.api = apiClient(fixture.sandbox.url, fixture.sandbox.token, clientOptions);
		fixture.control = fixture.api.control;
	});
	afterAll(async () => await fixture.sandbox?.close());
	if (resetEach) {
		beforeEach(async () => {
			fixture.sandbox.core.onApiRequest = undefined;
			await fixture.control.reset(sandboxOptions.seed ?? 'demo');
			await fixture.control.configure({
				unknown_params: sandboxOptions.unknownParams ?? 'accept',
				headers: sandboxOptions.headers ?? 'full',
			});
		});
	}
	return fixture;
}

/** A second, short-lived sandbox inside one test: started, handed to `use`, closed whatever happens. */
export async function withSandbox<T>(options: SandboxOptions, use: (sandbox: StartedSandbox) => Promise<T>): Promise<T> {
	const sandbox = await startSandbox(options);
	try {
		return await use(sandbox);
	} finally {
		await sandbox.close();
	}
}
