// The Stora sandbox for the end-to-end tests: compiled from sandbox with tsconfig.sandbox.json into build/, then
// started in this process (`startSandbox`), with the sandbox's own control-plane client (sandbox/client.ts,
// compiled alongside) as `control`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { REPO } from '../../scripts/toolchain.mjs';
import { run } from './basics.mjs';

const BUILD = path.join(REPO, 'build/sandbox');

/** Compiles the sandbox (tsc -p tsconfig.sandbox.json → build/). Returns the time taken in ms. */
export function buildSandbox() {
	const started = Date.now();
	run(
		process.execPath,
		[path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.sandbox.json'],
		{ cwd: REPO, label: 'compiling the sandbox (tsc)' },
	);
	return Date.now() - started;
}

/** The compiled module `name` (`index`, `client`) of the sandbox; build/ is CommonJS. */
function load(name) {
	const entry = path.join(BUILD, `${name}.js`);
	if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run buildSandbox() first`);
	return createRequire(import.meta.url)(entry);
}

/**
 * Starts the compiled sandbox; resolves to `{ url, token, close(), ... }` plus its control-plane client as `control`
 * (a `SandboxClient`: reset, state, requests, clearRequests, oauthClient, expireTokens, configure, call, ...).
 */
export async function startSandbox(options = {}) {
	const { startSandbox: start } = load('index');
	const { SandboxClient } = load('client');
	const sandbox = await start({ seed: 'demo', allowHttpWebhooks: true, ...options });
	const control = new SandboxClient(sandbox.url);
	// OAuth clients registered here show this name on the consent page.
	const register = control.oauthClient.bind(control);
	control.oauthClient = (redirectUris, scopes, name = 'n8n end-to-end') =>
		register(redirectUris, scopes, name);
	sandbox.control = control;
	return sandbox;
}

/** A Stora OAuth2 API credential (authorization code with PKCE) for a client registered in the sandbox. */
export function authorizationCodeCredential(sandbox, client) {
	return {
		grantType: 'authorizationCode',
		baseUrl: sandbox.url,
		authUrl: `${sandbox.url}/oauth2/authorize`,
		clientId: client.client_id,
		clientSecret: client.client_secret,
		usePkce: true,
	};
}

/**
 * Connects an authorization-code credential the way the editor's "Connect my account" does, without a browser: n8n's
 * authorization URL, the sandbox's consent page approved, n8n's callback with the code (n8n exchanges it, with the
 * PKCE verifier, and stores the tokens). Used where Chromium is not: queue mode, and the e2e suite without it.
 * `pkce`: whether this n8n applies the credential's Use PKCE (versions.mjs, api.pkceSwitch).
 */
export async function connectOAuth2(n8n, credential, sandbox, { pkce = true } = {}) {
	const check = (condition, message) => {
		if (!condition) throw new Error(message);
	};
	const res = await n8n.request(
		'GET',
		`/rest/oauth2-credential/auth?id=${credential.id}`,
		undefined,
		{ raw: true },
	);
	const text = await res.text();
	check(res.ok, `GET /rest/oauth2-credential/auth → ${res.status}: ${text.slice(0, 300)}`);
	const authUri = JSON.parse(text).data;
	const cookies = [n8n.cookie, ...res.headers.getSetCookie().map((c) => c.split(';')[0])].join(
		'; ',
	);
	const authUrl = new URL(authUri);
	check(
		authUrl.href.startsWith(`${sandbox.url}/oauth2/authorize`),
		`authorization URL ${authUrl.origin}${authUrl.pathname}`,
	);
	const method = authUrl.searchParams.get('code_challenge_method');
	check(
		pkce ? method === 'S256' : method === null,
		`code_challenge_method ${method} in the authorization URL (PKCE expected: ${pkce})`,
	);
	const consent = await fetch(authUri);
	check(
		consent.ok && (await consent.text()).includes('Approve'),
		`consent page: HTTP ${consent.status}`,
	);
	const form = new URLSearchParams(authUrl.searchParams);
	form.set('decision', 'approve');
	const approved = await fetch(`${sandbox.url}/oauth2/authorize`, {
		method: 'POST',
		body: form,
		redirect: 'manual',
	});
	await approved.arrayBuffer();
	const location = approved.headers.get('location') ?? '';
	check(
		approved.status === 302 && location.includes('code='),
		`approval answered ${approved.status}`,
	);
	const done = await fetch(location, { headers: { cookie: cookies }, redirect: 'manual' });
	const page = await done.text();
	check(
		done.status === 200 &&
			!/error/i.test(page.replace(/<script[\s\S]*?<\/script>/g, '').slice(0, 2000)),
		`n8n's callback answered ${done.status}: ${page.slice(0, 300)}`,
	);
	const stored = await n8n.getCredential(credential.id);
	check(stored.data?.oauthTokenData, 'n8n stored no token data on the credential');
}

/** A generated Stora list of any size (sandbox/largeList.ts, compiled with the sandbox). */
export async function startLargeList(options) {
	return await load('largeList').startLargeList(options);
}
