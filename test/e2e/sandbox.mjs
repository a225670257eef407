// The Stora sandbox for the end-to-end tests: compiled from test/sandbox with tsconfig.sandbox.json into build/, then
// started in this process (`startSandbox`), with the sandbox's own control-plane client (test/sandbox/client.ts,
// compiled alongside) as `control`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { REPO, run } from './n8n.mjs';

const BUILD = path.join(REPO, 'build/test/sandbox');

/** Compiles the sandbox (tsc -p tsconfig.sandbox.json → build/). Returns the time taken in ms. */
export function buildSandbox() {
	const started = Date.now();
	run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.sandbox.json'], { cwd: REPO });
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
	control.oauthClient = (redirectUris, scopes, name = 'n8n end-to-end') => register(redirectUris, scopes, name);
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

/** A generated Stora list of any size (test/sandbox/largeList.ts, compiled with the sandbox). */
export async function startLargeList(options) {
	return await load('largeList').startLargeList(options);
}
