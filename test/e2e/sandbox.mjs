// The Stora sandbox for the end-to-end tests: compiled from test/sandbox with tsconfig.sandbox.json into build/, then
// started in this process (`startSandbox`), plus a small client for its control plane (`/__sandbox/*`).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { REPO, run } from './n8n.mjs';

/** Compiles the sandbox (tsc -p tsconfig.sandbox.json → build/). Returns the time taken in ms. */
export function buildSandbox() {
	const started = Date.now();
	run(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.sandbox.json'], { cwd: REPO });
	return Date.now() - started;
}

/** Starts the compiled sandbox; resolves to `{ url, token, close(), ... }` plus a control-plane client as `control`. */
export async function startSandbox(options = {}) {
	const entry = path.join(REPO, 'build/test/sandbox/index.js');
	if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run buildSandbox() first`);
	const { startSandbox: start } = createRequire(import.meta.url)(entry);
	const sandbox = await start({ seed: 'demo', allowHttpWebhooks: true, ...options });
	sandbox.control = new SandboxControl(sandbox.url);
	return sandbox;
}

export class SandboxControl {
	constructor(url) {
		this.url = url;
	}

	async call(method, urlPath, body) {
		const res = await fetch(`${this.url}${urlPath}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`sandbox ${method} ${urlPath} → ${res.status}: ${text.slice(0, 1000)}`);
		return text ? JSON.parse(text) : {};
	}

	async reset(seed = 'demo') {
		return await this.call('POST', '/__sandbox/reset', { seed });
	}

	async state(collection) {
		return (await this.call('GET', `/__sandbox/state/${collection}`))[collection];
	}

	async requests() {
		return (await this.call('GET', '/__sandbox/requests')).requests;
	}

	async clearRequests() {
		await this.call('DELETE', '/__sandbox/requests');
	}

	async token(scopes = 'all', expiresIn) {
		return await this.call('POST', '/__sandbox/tokens', { scopes, ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) });
	}

	async oauthClient(redirectUris, scopes) {
		return await this.call('POST', '/__sandbox/oauth-clients', { redirect_uris: redirectUris, ...(scopes ? { scopes } : {}), name: 'n8n end-to-end' });
	}

	/** Expires every access token (or one), as if its lifetime had passed. */
	async expireTokens(accessToken) {
		return await this.call('POST', '/__sandbox/expire-tokens', accessToken ? { access_token: accessToken } : {});
	}
}
