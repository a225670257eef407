// `npm start`: the whole thing running locally, ready to click through. Installs what is missing (Node 24 in .tools/,
// the dev dependencies, n8n 2.41.1 in .cache/), builds this package, starts the Stora sandbox with demo data and n8n
// with the package installed, creates working credentials pointing at the sandbox, imports the example workflows
// from examples/, and prints the editor URL and login. Ctrl-C (SIGINT), SIGTERM and SIGHUP stop everything it
// started, also halfway through starting.
//
// The n8n user folder is kept in .cache/demo/n8n, so workflows you build survive a restart; the sandbox keeps its
// access token in .cache/demo/sandbox-token so the credentials stay valid. Options: --fresh (start from an empty
// n8n), --port <n8n port> (default 5678), --sandbox-port <port> (default 4010): a port that is busy, or that browsers
// and fetch refuse to connect to, is replaced by a free one (the Ready text says so); --dir <folder> (instead of
// .cache/demo); --smoke (come up on free ports with a throw-away n8n folder, run the "list sites" example through
// n8n's REST API, stop everything, exit 0 when it worked).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { descendants, onParentGone, processSet } from './processes.mjs';
import { logAs } from '../test/realN8n/basics.mjs';
import { loadExamples, withCredentials } from '../test/realN8n/examples.mjs';
import {
	ensureN8n,
	freePort,
	OWNER,
	packPackage,
	REPO,
	seconds,
	startN8n,
} from '../test/realN8n/n8n.mjs';
import { sayAs } from './toolchain.mjs';
import {
	authorizationCodeCredential,
	buildSandbox,
	startSandbox,
} from '../test/realN8n/sandbox.mjs';

const SMOKE_EXAMPLE = 'Stora: list sites';

/**
 * The demo's n8n runs in the time zone of its data (a UK operator's sites), so a date typed in the editor means the
 * same day to n8n as to the records it reads. A user sets theirs the same way, with n8n's GENERIC_TIMEZONE.
 */
export const DEMO_TIME_ZONE = 'Europe/London';

/** The credentials the demo keeps in n8n, by name. The access token one is saved last: new Stora nodes pick it. */
export const DEMO_CREDENTIALS = {
	authorizationCode: 'Stora sandbox (OAuth2 authorization code)',
	clientCredentials: 'Stora sandbox (OAuth2 client credentials)',
	accessToken: 'Stora sandbox (access token)',
};

// ------------------------------------------------------------------------------------------------ ports

/**
 * The ports fetch refuses to connect to (the Fetch standard's "bad ports"; Node's fetch and browsers apply it, so
 * neither the demo nor the editor can use a service there). Checked against Node 24's fetch for ports 1 to 11000.
 */
export const BLOCKED_PORTS = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
	103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
	512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
	995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
	6669, 6679, 6697, 10080,
]);

/** Whether something accepts connections on 127.0.0.1:`port` or keeps us from listening there. */
function busy(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

/**
 * `preferred` when it can serve `what`, else a free port (never a blocked one) and a note saying why, for the Ready
 * text. Returns { port, note }.
 */
export async function usablePort(preferred, what) {
	let why;
	if (!Number.isInteger(preferred) || preferred < 1 || preferred > 65535)
		why = `${preferred} is not a port number`;
	else if (BLOCKED_PORTS.has(preferred))
		why = `port ${preferred} is one that browsers and fetch refuse to connect to`;
	else if (await busy(preferred)) why = `port ${preferred} is in use`;
	if (!why) return { port: preferred };
	let port = await freePort();
	while (BLOCKED_PORTS.has(port)) port = await freePort();
	return { port, note: `${what}: ${why}, so it is on ${port}` };
}

// ------------------------------------------------------------------------------------------------ errors

/** The request of each failed fetch (method and URL), kept by its error: fetch's "fetch failed" names neither. */
const failedRequests = new WeakMap();
let fetchAnnotated = false;

/**
 * Makes every failed fetch of this process remember its method and URL for `describeError`; errors stay as they are.
 * Returns the function that puts the plain fetch back.
 */
export function rememberFailedRequests() {
	if (fetchAnnotated) return () => {};
	fetchAnnotated = true;
	const fetch = globalThis.fetch;
	globalThis.fetch = async (input, init) => {
		try {
			return await fetch(input, init);
		} catch (error) {
			const url = typeof input === 'string' || input instanceof URL ? String(input) : input?.url;
			if (error && typeof error === 'object')
				failedRequests.set(error, `${init?.method ?? input?.method ?? 'GET'} ${url}`);
			throw error;
		}
	};
	return () => {
		globalThis.fetch = fetch;
		fetchAnnotated = false;
	};
}

/**
 * What went wrong, for a person: the message, the request it was about, and every cause under it (fetch puts the
 * real reason, "bad port" or ECONNREFUSED, in `cause`), then the stack.
 */
export function describeError(error) {
	const lines = [];
	const seen = new Set();
	const describe = (e, depth) => {
		if (!e || seen.has(e)) return;
		seen.add(e);
		const text =
			e instanceof Error
				? `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`
				: String(e);
		lines.push(depth ? `${'  '.repeat(depth)}because: ${text}` : text);
		const request = failedRequests.get(e);
		if (request) lines.push(`${'  '.repeat(depth + 1)}request: ${request}`);
		for (const inner of e instanceof AggregateError ? e.errors : []) describe(inner, depth + 1);
		describe(e?.cause, depth + 1);
	};
	describe(error, 0);
	const stack = error instanceof Error ? error.stack?.split('\n').slice(1).join('\n') : '';
	return `${lines.join('\n')}${stack ? `\n${stack}` : ''}`;
}

// ------------------------------------------------------------------------------------------------ credentials

async function upsertCredential(n8n, name, type, data) {
	const existing = (await n8n.request('GET', '/rest/credentials')).find(
		(c) => c.name === name && c.type === type,
	);
	if (existing)
		return await n8n.request('PATCH', `/rest/credentials/${existing.id}`, { name, type, data });
	return await n8n.createCredential(name, type, data);
}

/**
 * The demo's three Stora credentials, created or updated. n8n preselects, in a new Stora node, the Stora credential
 * saved last (the greatest `updatedAt` of both types); the authorization-code one works only after Connect → Approve,
 * so the access token one is saved last, again until its `updatedAt` is strictly the greatest (on a tie n8n would
 * take the OAuth2 one). Returns them by role.
 */
export async function demoCredentials(n8n, sandbox) {
	const callback = `${n8n.base}/rest/oauth2-credential/callback`;
	// The sandbox forgets OAuth clients when it stops, so a client is registered again on every start.
	const client = await sandbox.control.oauthClient(
		[callback, callback.replace('127.0.0.1', 'localhost')],
		undefined,
		'n8n (the demo)',
	);
	// Every scope the nodes can need, the optional ones included: the demo's examples and a Stora Trigger built in it
	// need public.webhook_endpoint:write and public.price_adjustment:write, which the credential's default leaves out.
	const scope = createRequire(import.meta.url)(
		path.join(REPO, 'dist/nodes/Stora/helpers/scopes.js'),
	).ALL_SCOPES.join(' ');
	const authorizationCode = await upsertCredential(
		n8n,
		DEMO_CREDENTIALS.authorizationCode,
		'storaOAuth2Api',
		{ ...authorizationCodeCredential(sandbox, client), scope },
	);
	const clientCredentials = await upsertCredential(
		n8n,
		DEMO_CREDENTIALS.clientCredentials,
		'storaOAuth2Api',
		{
			scope,
			grantType: 'clientCredentials',
			baseUrl: sandbox.url,
			clientId: client.client_id,
			clientSecret: client.client_secret,
		},
	);
	const tokenData = { baseUrl: sandbox.url, accessToken: sandbox.token };
	let accessToken = await upsertCredential(
		n8n,
		DEMO_CREDENTIALS.accessToken,
		'storaApi',
		tokenData,
	);
	for (let attempt = 1; ; attempt++) {
		const newest = await newestStoraCredential(n8n);
		if (newest.id === accessToken.id && newest.strictly) break;
		if (attempt === 5)
			throw new Error(
				`n8n would preselect "${newest.name}" in new Stora nodes, not "${accessToken.name}"`,
			);
		accessToken = await upsertCredential(n8n, DEMO_CREDENTIALS.accessToken, 'storaApi', tokenData);
	}
	return { accessToken, clientCredentials, authorizationCode };
}

/** The Stora credential n8n preselects in a new Stora node: the one saved last; `strictly` when no other ties it. */
export async function newestStoraCredential(n8n) {
	const stora = (await n8n.request('GET', '/rest/credentials')).filter((c) =>
		['storaApi', 'storaOAuth2Api'].includes(c.type),
	);
	const times = stora.map((c) => Date.parse(c.updatedAt));
	const latest = Math.max(...times);
	const newest = stora[times.indexOf(latest)];
	return { ...newest, strictly: times.filter((t) => t === latest).length === 1 };
}

// ------------------------------------------------------------------------------------------------ stopping

const stops = [];
let stopping = false;

/** Signals every process still running below this one (n8n while it was still starting, say) and waits until it ends. */
async function stopChildren() {
	const children = processSet(descendants(process.pid));
	if (!children.size()) return;
	// n8n runs in its own process group (with its task runner): the whole group goes.
	children.signal('SIGTERM');
	const deadline = Date.now() + 20_000;
	while (children.running().length && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	children.signal('SIGKILL');
}

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
	await stopChildren();
	process.exit(code);
}

// ------------------------------------------------------------------------------------------------ main

async function main(args, t0) {
	// The dev dependencies and Node 24 are in place: `npm start` runs this through scripts/npmScript.mjs.
	await ensureN8n();
	buildSandbox();
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-demo-pack-'));
	stops.push(() => fs.rmSync(packDir, { recursive: true, force: true }));
	const { tarball } = packPackage(packDir);

	const demoDir = path.resolve(args.dir ?? path.join(REPO, '.cache/demo'));
	fs.mkdirSync(demoDir, { recursive: true });
	const tokenFile = path.join(demoDir, 'sandbox-token');
	if (!fs.existsSync(tokenFile))
		fs.writeFileSync(tokenFile, `tok_demo_${randomBytes(12).toString('hex')}`);
	const notes = [];
	const sandboxPort = args.smoke
		? { port: await freePort() }
		: await usablePort(Number(args['sandbox-port']), 'Stora sandbox');
	if (sandboxPort.note) notes.push(sandboxPort.note);
	const sandbox = await startSandbox({
		port: sandboxPort.port,
		seed: 'demo',
		allowHttpWebhooks: true,
		// The documented limits (10/s, 60/min), as a real account has them.
		rateLimit: 'default',
		token: fs.readFileSync(tokenFile, 'utf8').trim(),
	});
	stops.push(() => sandbox.close());

	// The smoke run leaves the demo's own n8n folder alone: startN8n makes (and removes) a throw-away one.
	const userFolder = args.smoke ? undefined : path.join(demoDir, 'n8n');
	if (userFolder && args.fresh) fs.rmSync(userFolder, { recursive: true, force: true });
	if (userFolder) fs.mkdirSync(userFolder, { recursive: true });
	const n8nPort = args.smoke
		? { port: await freePort() }
		: await usablePort(Number(args.port), 'n8n');
	if (n8nPort.note) notes.push(n8nPort.note);
	const n8n = await startN8n({
		tarball,
		userFolder,
		port: n8nPort.port,
		env: { GENERIC_TIMEZONE: DEMO_TIME_ZONE },
		heartbeat: true,
	});
	stops.push(() => n8n.stop());

	const { accessToken, clientCredentials } = await demoCredentials(n8n, sandbox);

	// Example workflows, once (by name).
	const existing = new Set((await n8n.request('GET', '/rest/workflows')).map((w) => w.name));
	const imported = [];
	for (const { workflow } of loadExamples()) {
		if (existing.has(workflow.name)) continue;
		await n8n.createWorkflow(
			withCredentials(workflow, { storaApi: accessToken, storaOAuth2Api: clientCredentials }),
		);
		imported.push(workflow.name);
	}

	if (args.smoke) {
		await smokeRun(n8n, sandbox, t0);
		return;
	}

	// A lost deal for the deal.lost example: an event for any other deal has no lost reason for its task to quote.
	const lostDeal = (await sandbox.control.state('deals')).find(
		(deal) => deal.status === 'lost' && deal.lost_reason,
	);
	console.log(`
Ready in ${seconds(Date.now() - t0)}.${notes.map((note) => `\n(${note}.)`).join('')}

  n8n editor     ${n8n.base}/
  login          ${OWNER.email} / ${OWNER.password}
  Stora sandbox  ${sandbox.url}   (access token ${sandbox.token})

Credentials in n8n: "${DEMO_CREDENTIALS.accessToken}", "${DEMO_CREDENTIALS.clientCredentials}" and
"${DEMO_CREDENTIALS.authorizationCode}". A new Stora node starts with "${DEMO_CREDENTIALS.accessToken}"
(n8n preselects the Stora credential saved last, and the demo saves that one last: once you save another Stora
credential, new nodes start with that one; pick the one you want in the node's Credential field). The OAuth2 ones ask
for every scope the nodes use. The authorization-code one works
only after you open it, click Connect and then Approve on the sandbox's consent page.
${imported.length ? `Imported example workflows: ${imported.join(', ')}.` : 'Example workflows: already imported.'}

  examples       ${n8n.base}/home/workflows   (after login n8n may open its Assistant: the examples are here)
  MCP example    ${n8n.base}/mcp/stora-assistant   (once "Stora assistant over MCP" is published)
  send an event  curl -X POST ${sandbox.url}/__sandbox/events -H 'content-type: application/json' -d '{"type":"contact.created"}'
                 (any event type of the Stora Trigger; a published or listening trigger receives it, signed)${
										lostDeal
											? `
                 curl -X POST ${sandbox.url}/__sandbox/events -H 'content-type: application/json' -d '{"type":"deal.lost","id":"${lostDeal.id}"}'
                 (a lost deal, with its lost reason: what "Stora: task to win back a lost deal" reads)`
											: ''
									}
  state          ${demoDir}   (kept between runs; npm start -- --fresh starts n8n's part anew)
  time zone      ${DEMO_TIME_ZONE}, the demo data's (n8n's GENERIC_TIMEZONE; each workflow's own in its Settings)

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
async function smokeRun(n8n, sandbox, t0) {
	const workflow = (await n8n.request('GET', '/rest/workflows')).find(
		(w) => w.name === SMOKE_EXAMPLE,
	);
	if (!workflow) throw new Error(`the example "${SMOKE_EXAMPLE}" was not imported`);
	const full = await n8n.request('GET', `/rest/workflows/${workflow.id}`);
	const trigger = full.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	const execution = await n8n.runManually(workflow.id, trigger.name);
	const error = execution.data?.resultData?.error;
	if (execution.status !== 'success')
		throw new Error(`"${SMOKE_EXAMPLE}" ended ${execution.status}: ${error?.message ?? ''}`);
	const lastNode = execution.data.resultData.lastNodeExecuted;
	const items = execution.data.resultData.runData[lastNode]?.[0]?.data?.main?.[0] ?? [];
	const sites = await sandbox.control.state('sites');
	if (items.length !== sites.length)
		throw new Error(
			`"${SMOKE_EXAMPLE}" returned ${items.length} items; the sandbox has ${sites.length} sites`,
		);
	const { timezone } = await n8n.request('GET', '/rest/settings');
	if (timezone !== DEMO_TIME_ZONE)
		throw new Error(`the demo's n8n runs in ${timezone}, not ${DEMO_TIME_ZONE}`);
	console.log(
		`\nSmoke run: ready in ${seconds(Date.now() - t0)}; "${SMOKE_EXAMPLE}" returned all ${items.length} sites; n8n's time zone is ${timezone}. Stopping.`,
	);
	await stopAll(0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	// From the user's `npm start` (scripts/npmScript.mjs), so a first run's toolchain install counts too.
	const t0 = Number(process.env.STORA_COMMAND_STARTED_AT) || Date.now();
	logAs('demo');
	sayAs('demo');
	const { values: args } = parseArgs({
		options: {
			fresh: { type: 'boolean', default: false },
			port: { type: 'string', default: '5678' },
			'sandbox-port': { type: 'string', default: '4010' },
			dir: { type: 'string' },
			smoke: { type: 'boolean', default: false },
		},
	});
	rememberFailedRequests();
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(signal, () => {
			if (!stopping) console.log(`\n${signal}: stopping n8n and the sandbox…`);
			void stopAll(0);
		});
	}
	// Started by scripts/npmScript.mjs: should that end without a word (SIGKILL), nothing would stop n8n.
	onParentGone(() => {
		if (!stopping)
			console.log('\nThe process that started the demo is gone: stopping n8n and the sandbox…');
		void stopAll(0);
	});
	main(args, t0).catch(async (error) => {
		// A signal that came in while a step was running: the stop it started, not the step's failure, is the story.
		await new Promise((resolve) => setImmediate(resolve));
		if (stopping) return;
		console.error(`npm start failed: ${describeError(error)}`);
		await stopAll(1);
	});
}
