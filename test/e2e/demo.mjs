// `npm start`: the whole thing running locally, ready to click through. Installs what is missing (Node 24 in .tools/,
// the dev dependencies, n8n 2.41.1 in .cache/), builds this package, starts the Stora sandbox with demo data and n8n
// with the package installed, creates working credentials pointing at the sandbox, imports the example workflows
// from examples/, and prints the editor URL and login. Ctrl-C stops everything it started.
//
// The n8n user folder is kept in .cache/demo/n8n, so workflows you build survive a restart; the sandbox keeps its
// access token in .cache/demo/sandbox-token so the credentials stay valid. Options: --fresh (start from an empty
// n8n), --port <n8n port> (default 5678), --sandbox-port <port> (default 4010), --smoke (come up on free ports with a
// throw-away n8n folder, run the "list sites" example through n8n's REST API, stop everything, exit 0 when it worked).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { loadExamples, withCredentials } from './examples.mjs';
import { ensureN8n, freePort, OWNER, packPackage, REPO, seconds, startN8n } from './n8n.mjs';
import { authorizationCodeCredential, buildSandbox, startSandbox } from './sandbox.mjs';

const { values: args } = parseArgs({
	options: {
		fresh: { type: 'boolean', default: false },
		port: { type: 'string', default: '5678' },
		'sandbox-port': { type: 'string', default: '4010' },
		smoke: { type: 'boolean', default: false },
	},
});
const SMOKE_EXAMPLE = 'Stora: list sites';

const DEMO_DIR = path.join(REPO, '.cache/demo');
const t0 = Date.now();
const stops = [];
let stopping = false;

async function stopAll(code = 0) {
	if (stopping) return;
	stopping = true;
	for (const stop of stops.reverse()) {
		try {
			await stop();
		} catch (error) {
			console.error('stop failed:', error.message);
		}
	}
	process.exit(code);
}
process.on('SIGINT', () => {
	console.log('\nStopping n8n and the sandbox…');
	void stopAll(0);
});
process.on('SIGTERM', () => void stopAll(0));

/** `preferred` when nothing listens on it, else a free port. */
async function portOr(preferred) {
	const free = await new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}

async function upsertCredential(n8n, name, type, data) {
	const existing = (await n8n.request('GET', '/rest/credentials')).find((c) => c.name === name && c.type === type);
	if (existing) {
		await n8n.request('PATCH', `/rest/credentials/${existing.id}`, { name, type, data });
		return existing;
	}
	return await n8n.createCredential(name, type, data);
}

async function main() {
	// The dev dependencies and Node 24 are in place: `npm start` runs this through test/tools/npmScript.mjs.
	await ensureN8n();
	buildSandbox();
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-demo-pack-'));
	stops.push(() => fs.rmSync(packDir, { recursive: true, force: true }));
	const { tarball } = packPackage(packDir);

	fs.mkdirSync(DEMO_DIR, { recursive: true });
	const tokenFile = path.join(DEMO_DIR, 'sandbox-token');
	if (!fs.existsSync(tokenFile)) fs.writeFileSync(tokenFile, `tok_demo_${randomBytes(12).toString('hex')}`);
	const sandbox = await startSandbox({
		port: args.smoke ? await freePort() : await portOr(Number(args['sandbox-port'])),
		seed: 'demo',
		allowHttpWebhooks: true,
		// The documented limits (10/s, 60/min), as a real account has them.
		rateLimit: 'default',
		token: fs.readFileSync(tokenFile, 'utf8').trim(),
	});
	stops.push(() => sandbox.close());

	// The smoke run leaves the demo's own n8n folder alone: startN8n makes (and removes) a throw-away one.
	const userFolder = args.smoke ? undefined : path.join(DEMO_DIR, 'n8n');
	if (userFolder && args.fresh) fs.rmSync(userFolder, { recursive: true, force: true });
	if (userFolder) fs.mkdirSync(userFolder, { recursive: true });
	const n8nPort = args.smoke ? await freePort() : await portOr(Number(args.port));
	const n8n = await startN8n({ tarball, userFolder, port: n8nPort });
	stops.push(() => n8n.stop());
	const callback = `${n8n.base}/rest/oauth2-credential/callback`;

	// Credentials. The sandbox forgets OAuth clients when it stops, so the client is registered again on every start.
	const token = await upsertCredential(n8n, 'Stora sandbox (access token)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
	const client = await sandbox.control.oauthClient([callback, callback.replace('127.0.0.1', 'localhost')]);
	const clientCredentials = await upsertCredential(n8n, 'Stora sandbox (OAuth2 client credentials)', 'storaOAuth2Api', {
		grantType: 'clientCredentials',
		baseUrl: sandbox.url,
		clientId: client.client_id,
		clientSecret: client.client_secret,
	});
	await upsertCredential(n8n, 'Stora sandbox (OAuth2 authorization code)', 'storaOAuth2Api', authorizationCodeCredential(sandbox, client));

	// Example workflows, once (by name).
	const existing = new Set((await n8n.request('GET', '/rest/workflows')).map((w) => w.name));
	const imported = [];
	for (const { workflow } of loadExamples()) {
		if (existing.has(workflow.name)) continue;
		await n8n.createWorkflow(withCredentials(workflow, { storaApi: token, storaOAuth2Api: clientCredentials }));
		imported.push(workflow.name);
	}

	if (args.smoke) {
		await smokeRun(n8n, sandbox);
		return;
	}

	console.log(`
Ready in ${seconds(Date.now() - t0)}.

  n8n editor     ${n8n.base}/
  login          ${OWNER.email} / ${OWNER.password}
  Stora sandbox  ${sandbox.url}   (access token ${sandbox.token})

Credentials in n8n: "Stora sandbox (access token)", "Stora sandbox (OAuth2 client credentials)", and
"Stora sandbox (OAuth2 authorization code)" (open it and click Connect, then Approve on the sandbox's consent page).
${imported.length ? `Imported example workflows: ${imported.join(', ')}.` : 'Example workflows: already imported.'}
n8n's log: ${n8n.logFile}

Ctrl-C stops n8n and the sandbox.`);
	n8n.child.on('exit', (code) => {
		if (!stopping) {
			console.error(`n8n exited (${code}); see ${n8n.logFile}`);
			void stopAll(1);
		}
	});
}

/** `--smoke`: what a person does first in the editor, done through its REST API: run an example, see the sites. */
async function smokeRun(n8n, sandbox) {
	const workflow = (await n8n.request('GET', '/rest/workflows')).find((w) => w.name === SMOKE_EXAMPLE);
	if (!workflow) throw new Error(`the example "${SMOKE_EXAMPLE}" was not imported`);
	const full = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const trigger = full.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const execution = await n8n.runManually(workflow.id, trigger.name);
	const error = execution.data?.resultData?.error;
	if (execution.status !== 'success') throw new Error(`"${SMOKE_EXAMPLE}" ended ${execution.status}: ${error?.message ?? ''}`);
	const lastNode = execution.data.resultData.lastNodeExecuted;
	const items = execution.data.resultData.runData[lastNode]?.[0]?.data?.main?.[0] ?? [];
	const sites = await sandbox.control.state('sites');
	if (items.length !== sites.length) throw new Error(`"${SMOKE_EXAMPLE}" returned ${items.length} items; the sandbox has ${sites.length} sites`);
	console.log(`\nSmoke run: ready in ${seconds(Date.now() - t0)}; "${SMOKE_EXAMPLE}" returned all ${items.length} sites. Stopping.`);
	await stopAll(0);
}

main().catch(async (error) => {
	console.error(`npm start failed: ${error.stack ?? error.message}`);
	await stopAll(1);
});
