/**
 * The jest fixture for suites that talk to a running sandbox over HTTP (the sandbox's own tests; the node's tests
 * use it through `useSandboxForNode`, test/helpers/sandboxFixture.ts): call `useSandboxWithClients()` at the top
 * of a file or a `describe`; it starts a sandbox on a free port before the tests, resets it to its seed (and its
 * modes to the given ones) before each test, and closes it afterwards. Read `.sandbox`, `.call`, `.api` and
 * `.control` inside the tests. Beside it: `withSandbox` (a second sandbox inside one test), `useReceiver` (a webhook
 * receiver for a whole file) and `useOAuthApp` (the OAuth 2 suites' sandbox and app). Not part of the sandbox build
 * (it uses jest's globals).
 */
import {
	apiClient,
	client,
	SandboxClient,
	type ApiClient,
	type Call,
	type ClientOptions,
} from '../client';
import { manualClock, startReceiver, widgetsModule, type Receiver } from '../core/testing';
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
export async function withSandbox<T>(
	options: SandboxOptions,
	use: (sandbox: StartedSandbox) => Promise<T>,
): Promise<T> {
	const sandbox = await startSandbox(options);
	try {
		return await use(sandbox);
	} finally {
		await sandbox.close();
	}
}

/**
 * A webhook receiver for a whole file: started and subscribed (an endpoint called `name` for `eventTypes`, created
 * through the API) before its tests, closed afterwards. Call it after `useSandboxWithClients`, with a sandbox that
 * allows http:// webhooks; read `.events` inside the tests.
 */
export function useReceiver(
	fx: SandboxFixture,
	name: string,
	eventTypes: string[],
): Pick<Receiver, 'events'> {
	let receiver: Receiver;
	beforeAll(async () => {
		receiver = await startReceiver();
		const created = await fx.call('POST', '/2025-09/webhook_endpoints', {
			body: {
				name,
				api_version: '2025-09',
				url: receiver.url,
				event_types: eventTypes,
			},
		});
		expect(created.status).toBeLessThan(300);
	});
	afterAll(async () => {
		await receiver.close();
	});
	return {
		get events() {
			return receiver.events;
		},
	};
}

export const OAUTH_REDIRECT = 'https://app.example.test/callback';
export const OAUTH_READ = 'public.widget:read';
export const OAUTH_WRITE = 'public.widget:write';

/**
 * The sandbox of the OAuth 2 suites (oauth.test.ts, resources/accessTokenRoutes.test.ts): the widgets module, a
 * clock the tests move (`time`), 2-hour tokens, no reset between tests, and one OAuth app (`app`, registered
 * before the tests) allowed the widget scopes. `token` asks POST /oauth2/token for a token, as JSON or as a form.
 */
export function useOAuthApp() {
	const time = manualClock('2025-06-01T12:00:00.000Z');
	const fx = useSandboxWithClients({
		modules: [widgetsModule],
		clock: time.clock,
		tokenTtlSeconds: 7200,
		resetEach: false,
	});
	const app = {} as { clientId: string; clientSecret: string };

	beforeAll(() => {
		Object.assign(
			app,
			fx.sandbox.createOAuthClient({
				redirectUris: [OAUTH_REDIRECT],
				scopes: [OAUTH_READ, OAUTH_WRITE],
				name: 'Acme Integration',
			}),
		);
	});

	const token = (
		body: Record<string, string>,
		asForm = false,
		headers: Record<string, string> = {},
	) =>
		asForm
			? fx.call('POST', '/oauth2/token', { form: body, token: null, headers })
			: fx.call('POST', '/oauth2/token', { body, token: null, headers });

	return { time, fx, app, token };
}
