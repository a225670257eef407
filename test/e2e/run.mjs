// End-to-end tests: this package inside a real n8n, talking to the Stora sandbox. The n8n is the newest supported one,
// or the one E2E_N8N_VERSION names (test/realN8n/versions.mjs; `npm run test:versions` runs every supported one).
//
//   npm run test:e2e [-- options]
//     --only <text>          run only the workflow cases whose file name or title contains <text>
//     --no-browser           skip the Chromium parts (OAuth2 authorization code flow, editor checks); they run only
//                            against the newest n8n anyway
//     --screenshots <dir>    where the editor screenshots go (default: .cache/e2e-artifacts; use docs/screenshots
//                            to refresh the committed ones)
//     --keep                 leave n8n and the sandbox running at the end (Ctrl-C stops them)
//
// Steps: install n8n (cached in .cache/), compile the sandbox, build + `npm pack` this package and install the
// tarball into a throw-away n8n user folder, start the sandbox and n8n, create credentials over n8n's REST API, then
// run every workflow in test/e2e/workflows/ through a production webhook and compare the answer with its `expect`
// block, check OAuth2 (client credentials; authorization code with PKCE in Chromium) and the editor. Ends with
// "N passed, N failed"; exits 1 on any failure. Everything it starts is stopped by PID, also on Ctrl-C.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { assert, checkLines, createHarness, KnownN8nBug } from '../realN8n/harness.mjs';
import { loadExamples, triggerOf, withCredentials } from '../realN8n/examples.mjs';
import { match, resolve } from './expect.mjs';
import { pollAcrossRestart, pollFlow, returnAllAtTheBound } from './edges.mjs';
import { agentChecks } from './agent.mjs';
import { customApiCallChecks } from './customApiCall.mjs';
import { mcpChecks } from './mcp.mjs';
import { forgedDeliveries } from '../realN8n/forged.mjs';
import { atLeastOnce, listenUntilTimeout, sqliteLock, sqliteRefusal, stoppedMidDelivery, triggerLifecycle } from '../realN8n/triggerLife.mjs';
import { ensureN8n, freePort, log, N8N_VERSION, packPackage, REPO, run, seconds, sleep, startN8n, VERSION } from '../realN8n/n8n.mjs';
import { authorizationCodeCredential, buildSandbox, connectOAuth2, startSandbox } from '../realN8n/sandbox.mjs';
import { KNOWN_N8N_BUGS } from '../realN8n/versions.mjs';
import { assertNoSecretLeaked, collectSecrets } from '../realN8n/secrets.mjs';
import { recordFigures } from '../helpers/figures.ts';

const { values: args } = parseArgs({
	options: {
		only: { type: 'string' },
		'no-browser': { type: 'boolean', default: false },
		screenshots: { type: 'string', default: path.join(REPO, '.cache/e2e-artifacts') },
		keep: { type: 'boolean', default: false },
	},
});

const PACKAGE_PREFIX = 'n8n-nodes-stora';
const NODE_TYPE = `${PACKAGE_PREFIX}.stora`;
const TRIGGER_TYPE = `${PACKAGE_PREFIX}.storaTrigger`;
const WORKFLOW_DIR = path.join(REPO, 'test/e2e/workflows');
const { timings, cleanups, timed, check, run: runSuite } = createHarness('[e2e]', {
	report: checkLines,
	width: 58,
});

// ------------------------------------------------------------------------------------------------ checks

function assertMatch(actual, expected, what) {
	const problems = match(actual, expected);
	if (problems.length) throw new Error(`${what} does not match:\n${problems.slice(0, 15).join('\n')}`);
}

/**
 * The errors this package's nodes raised in an execution, each as its message and description: a node's failed run,
 * and (Continue On Fail, error output) the error n8n keeps beside an item. Never an item's data, which carries the
 * input it came from (an error output merges the input item's JSON into it).
 */
function storaErrors(execution, workflow) {
	const ours = new Set(workflow.nodes.filter((node) => node.type.startsWith(`${PACKAGE_PREFIX}.`)).map((node) => node.name));
	const text = (error) => (typeof error === 'string' ? error : `${error?.message ?? ''}\n${error?.description ?? ''}`);
	const { runData = {} } = execution.data?.resultData ?? {};
	return Object.entries(runData)
		.filter(([name]) => ours.has(name))
		.flatMap(([, runs]) =>
			runs.flatMap((run) => [run.error, ...(run.data?.main ?? []).flatMap((output) => (output ?? []).map((item) => item.error))]),
		)
		.filter(Boolean)
		.map(text);
}

// ------------------------------------------------------------------------------------------------ workflows

/** Loads the workflow case files (one JSON per case, see test/e2e/workflows/README.md). */
function loadCases() {
	return fs
		.readdirSync(WORKFLOW_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({ file, ...JSON.parse(fs.readFileSync(path.join(WORKFLOW_DIR, file), 'utf8')) }))
		.filter((c) => !args.only || c.file.includes(args.only) || c.name.includes(args.only));
}

/**
 * Turns a case's `workflow` into a full n8n workflow: adds the Webhook trigger (POST, answers with every item of the
 * last node) unless one is there, fills in ids, positions, types and connections, and sets each Stora node's
 * authentication and credential.
 */
export function buildWorkflow(testCase, credentials, webhookPath) {
	const source = structuredClone(testCase.workflow);
	const nodes = source.nodes.map((node, i) => ({
		id: randomUUID(),
		typeVersion: 1,
		position: [240 * (i + 1), 0],
		...node,
		type: node.type ?? NODE_TYPE,
		parameters: node.parameters ?? {},
	}));
	let webhook = nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	const trigger = nodes.find((n) => n.type === TRIGGER_TYPE);
	const connections = source.connections ?? {};
	if (trigger) {
		// A Stora Trigger case: the trigger starts the workflow, n8n gives its webhook a path from webhookId.
		trigger.webhookId = randomUUID();
		if (!source.connections) {
			for (let i = 0; i + 1 < nodes.length; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
		}
	} else if (!webhook) {
		webhook = {
			id: randomUUID(),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			parameters: { httpMethod: 'POST', path: '', responseMode: 'lastNode', responseData: 'allEntries', options: {} },
		};
		if (!source.connections) {
			// A simple chain: every node's main output into the next node.
			for (let i = 0; i + 1 < nodes.length; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
		}
		connections[webhook.name] = { main: [[{ node: nodes[0].name, type: 'main', index: 0 }]] };
		nodes.unshift(webhook);
	}
	if (webhook) {
		webhook.parameters.path = webhookPath;
		webhook.webhookId = randomUUID();
	}
	for (const node of nodes.filter((n) => n.type.startsWith(`${PACKAGE_PREFIX}.`))) {
		const credentialKey = node.credential ?? testCase.credential ?? 'accessToken';
		delete node.credential;
		const credential = credentials[credentialKey];
		if (!credential) throw new Error(`unknown credential "${credentialKey}" (known: ${Object.keys(credentials).join(', ')})`);
		node.parameters.authentication = credential.type === 'storaApi' ? 'accessToken' : 'oAuth2';
		node.credentials = { [credential.type]: { id: credential.id, name: credential.name } };
	}
	return { name: `e2e: ${testCase.name}`.slice(0, 128), nodes, connections, settings: { executionOrder: 'v1' } };
}

/** Runs one case file: arrange the sandbox, create + publish the workflow, call its webhook, compare. */
async function runCase(testCase, ctx) {
	const { n8n, sandbox, credentials } = ctx;
	if (testCase.seed !== null) await sandbox.control.reset(testCase.seed ?? 'demo');
	const usesClientCredentials = [testCase.credential, ...testCase.workflow.nodes.map((n) => n.credential)].includes('oauth2ClientCredentials');
	if (usesClientCredentials) await ctx.freshClientCredentials();
	const refs = { state: (c) => sandbox.control.state(c), vars: ctx.vars };
	for (const step of testCase.before ?? []) {
		await sandbox.control.call(step.method ?? 'POST', step.path, await resolve(step.body, refs));
	}
	await sandbox.control.clearRequests();

	const slug = path.basename(testCase.file, '.json').replace(/[^a-z0-9-]/gi, '-');
	const workflow = await n8n.createWorkflow(buildWorkflow(testCase, credentials, `e2e-${slug}`));
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	try {
		if (workflow.nodes.some((n) => n.type === TRIGGER_TYPE)) return await runTriggerCase(testCase, workflow, ctx, refs);
		return await runWebhookCase(testCase, workflow, ctx, refs, slug);
	} catch (error) {
		// A failed case must not keep its webhook path published: the second pass publishes one on the same path.
		await n8n.deactivate(workflow).catch(() => {});
		throw error;
	}
}

/** A case started by the Webhook node: call it, compare the answer, the sandbox's requests and the execution. */
async function runWebhookCase(testCase, workflow, ctx, refs, slug) {
	const { n8n, sandbox } = ctx;
	const input = await resolve(testCase.input ?? {}, refs);
	const response = await n8n.callWebhook(`e2e-${slug}`, { body: input });
	const expect = await resolve(testCase.expect ?? {}, refs);
	const problems = [];
	if (expect.status !== undefined) problems.push(...match(response.status, expect.status, 'status'));
	if (expect.body !== undefined) problems.push(...match(response.body, expect.body, 'body'));
	// With undocumented parameters refused, the node may take another route to the same answer (Return All pages by
	// number after a 422): the answer is compared, the requests are not.
	if (expect.requests !== undefined && !ctx.answerOnly) problems.push(...match(await sandbox.control.requests(), expect.requests, 'requests'));
	if (expect.execution !== undefined) {
		const execution = await n8n.lastExecution(workflow.id);
		const summary = {
			status: execution.status,
			mode: execution.mode,
			error: execution.data?.resultData?.error,
			lastNodeExecuted: execution.data?.resultData?.lastNodeExecuted,
		};
		problems.push(...match(summary, expect.execution, 'execution'));
	}
	if (problems.length) {
		throw new Error(
			`${problems.slice(0, 15).join('\n')}\nresponse ${response.status}: ${response.text.slice(0, 600)}`,
		);
	}
	await n8n.deactivate(workflow);
}

/**
 * A Stora Trigger case: publishing registers a webhook endpoint in the sandbox, `events` are fired through the
 * control plane, the sandbox delivers them (signed) to n8n, and the executions they start are compared with
 * `expect`; unpublishing must remove the endpoint again.
 */
async function runTriggerCase(testCase, workflow, ctx, refs) {
	const { n8n, sandbox } = ctx;
	const problems = [];
	const expect = await resolve(testCase.expect ?? {}, refs);
	if (expect.endpoints !== undefined) problems.push(...match(await sandbox.control.state('webhook_endpoints'), expect.endpoints, 'endpoints after publishing'));
	const events = await resolve(testCase.events ?? [], refs);
	for (const event of events) await sandbox.control.call('POST', '/__sandbox/events', event);

	// Each delivered event starts one execution.
	const deadline = Date.now() + 30_000;
	let executions = [];
	while (Date.now() < deadline) {
		executions = (await n8n.executions(workflow.id)).filter((e) => !['running', 'new', 'waiting'].includes(e.status));
		if (executions.length >= (expect.executions ?? events.length)) break;
		await sleep(250);
	}
	await sleep(500); // a late extra execution would show up here
	executions = await n8n.executions(workflow.id);
	if (expect.executions !== undefined || events.length) problems.push(...match(executions.length, expect.executions ?? events.length, 'number of executions'));
	const outputs = [];
	for (const summary of [...executions].reverse()) {
		const execution = await n8n.execution(summary.id);
		const resultData = execution.data?.resultData ?? {};
		const last = resultData.lastNodeExecuted;
		outputs.push(...(resultData.runData?.[last]?.[0]?.data?.main?.flat() ?? []).map((item) => item.json));
		if (expect.execution !== undefined) problems.push(...match({ status: execution.status, mode: execution.mode, lastNodeExecuted: last }, expect.execution, `execution ${summary.id}`));
	}
	if (expect.output !== undefined) problems.push(...match(outputs, expect.output, 'output'));
	if (expect.deliveries !== undefined) problems.push(...match(await sandbox.control.call('GET', '/__sandbox/deliveries').then((r) => r.deliveries), expect.deliveries, 'deliveries'));

	await n8n.deactivate(workflow);
	if (expect.endpointsAfterUnpublish !== undefined) {
		problems.push(...match(await sandbox.control.state('webhook_endpoints'), expect.endpointsAfterUnpublish, 'endpoints after unpublishing'));
	}
	if (problems.length) throw new Error(problems.slice(0, 15).join('\n'));
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-'));
	cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

	// Screenshots of this run only: old failure shots go; the default artifacts folder is emptied.
	const defaultArtifacts = path.join(REPO, '.cache/e2e-artifacts');
	if (fs.existsSync(args.screenshots)) {
		for (const f of fs.readdirSync(args.screenshots)) {
			if (f.endsWith('.png') && (f.startsWith('failure-') || path.resolve(args.screenshots) === defaultArtifacts)) {
				fs.rmSync(path.join(args.screenshots, f));
			}
		}
	}

	// The Chromium parts run against the newest n8n only (versions.mjs, `browser`).
	const browser = !args['no-browser'] && VERSION.browser === true;
	log(`n8n ${N8N_VERSION} on Node ${VERSION.node}${browser ? '' : ', without the Chromium parts'}`);
	if (browser) {
		await timed('chromium (test/realN8n/setup.sh)', () => run('bash', [path.join(REPO, 'test/realN8n/setup.sh')], { quiet: true }));
	}
	const installTimings = await timed('n8n install (cached when unchanged)', () => ensureN8n());
	for (const [k, v] of Object.entries(installTimings)) timings.push([`  n8n install: ${k}`, v]);
	await timed('sandbox compile (tsc)', () => buildSandbox());
	const { tarball, timings: packTimings } = await timed('package build + npm pack', () => packPackage(work));
	for (const [k, v] of Object.entries(packTimings)) timings.push([`  package: ${k}`, v]);

	const sandbox = await timed('sandbox start', () => startSandbox({
		seed: 'demo',
		// A plan above the documented 10/s and 60/min, announced in RateLimit-Policy: the node learns it from the
		// first answer, as it would a real account's (the documented limits are exercised by the jest suites).
		rateLimit: { perSecond: 20, perMinute: 1200 },
	}));
	cleanups.push(() => sandbox.close());
	log(`sandbox at ${sandbox.url}`);

	const n8n = await timed('n8n start (fresh user folder, until REST ready + owner)', () => startN8n({ tarball }));
	cleanups.push(async () => {
		if (!args.keep) await n8n.stop({ keepFolder: process.exitCode === 1 && !!process.env.CI });
	});
	log(`n8n ${n8n.base} (user folder ${n8n.userFolder}, pid ${n8n.pid})`);

	const ctx = { n8n, sandbox, credentials: {}, workflows: [], vars: { sandboxUrl: sandbox.url, n8nUrl: n8n.base } };
	// Every secret the sandbox issues is remembered before a reset forgets it, for the leak check at the end.
	const secrets = new Set();
	const reset = sandbox.control.reset.bind(sandbox.control);
	sandbox.control.reset = async (seed) => {
		collectSecrets(sandbox, secrets);
		return await reset(seed);
	};
	const callback = `${n8n.base}/rest/oauth2-credential/callback`;

	console.log('\nPackage in n8n');
	await check('n8n loads the packed package: every node in package.json (Stora, Stora Trigger), both credential types and the icon', async () => {
		const nodeTypes = await n8n.request('GET', '/types/nodes.json');
		const stora = nodeTypes.filter((t) => t.name === NODE_TYPE);
		assert(stora.length === 1, `node type ${NODE_TYPE} not registered; server log:\n${n8n.logTail(20)}`);
		assert(stora[0].usableAsTool || nodeTypes.some((t) => t.name === `${NODE_TYPE}Tool`), 'the node is not usable as an AI tool');
		const declared = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).n8n.nodes.length;
		const ours = nodeTypes.filter((t) => t.name.startsWith(`${PACKAGE_PREFIX}.`) && !t.name.endsWith('Tool'));
		assert(ours.length === declared, `package.json declares ${declared} nodes, n8n registered ${ours.map((t) => t.name).join(', ')}`);
		const credentialTypes = (await n8n.request('GET', '/types/credentials.json')).map((c) => c.name);
		for (const name of ['storaApi', 'storaOAuth2Api']) assert(credentialTypes.includes(name), `credential type ${name} not registered`);
		const icon = await fetch(`${n8n.base}/icons/n8n-nodes-stora/dist/icons/stora.svg`, { headers: { cookie: n8n.cookie } });
		assert(icon.ok && (await icon.text()).includes('<svg'), `node icon not served (${icon.status})`);
		const logText = fs.readFileSync(n8n.logFile, 'utf8');
		assert(!/error.*n8n-nodes-stora|n8n-nodes-stora.*(error|failed)/i.test(logText), `n8n logged an error about the package:\n${logText.split('\n').filter((l) => /stora/i.test(l)).join('\n')}`);
	});

	console.log('\nCredentials');
	await check('Stora API credential (access token): created, and n8n\'s connection test passes', async () => {
		const data = { baseUrl: sandbox.url, accessToken: sandbox.token };
		const credential = await n8n.createCredential('Stora sandbox (token)', 'storaApi', data);
		ctx.credentials.accessToken = credential;
		const result = await n8n.testCredential({ id: credential.id, name: credential.name, type: 'storaApi', data });
		assertMatch(result, { status: 'OK' }, 'credential test');
	});
	await check('Stora API credential: n8n\'s connection test reports a bad token with the credential\'s own message', async () => {
		const data = { baseUrl: sandbox.url, accessToken: 'not-a-valid-token' };
		const result = await n8n.testCredential({ id: ctx.credentials.accessToken?.id, name: 'bad', type: 'storaApi', data });
		assertMatch(result, { status: 'Error', message: { $contains: 'Stora rejected the access token' } }, 'credential test');
	});
	await check('Stora API credential: n8n\'s connection test under every fault of the matrix passes or says what happened', async () => {
		const data = { baseUrl: sandbox.url, accessToken: sandbox.token };
		const tooMany = { error: { code: 'too_many_requests', type: 'rate_limit_error', message: 'Too many requests' } };
		const faults = {
			'429 with Retry-After': { status: 429, headers: { 'Retry-After': '1' }, body: tooMany },
			'429 without Retry-After': { status: 429, body: tooMany },
			'500': { status: 500 },
			'502 HTML page': { html: true },
			'reset before the API': { reset: true },
			'reset after the API processed it': { reset_after: true },
			timeout: { delay_ms: 2500 },
			'malformed JSON': { malformed: true },
			'empty body': { empty: true },
		};
		const outcomes = [];
		for (const [name, fault] of Object.entries(faults)) {
			await sandbox.control.fault({ method: 'GET', path: '/2025-09/sites' }, [fault]);
			const result = await n8n.testCredential({ id: ctx.credentials.accessToken?.id, name: 'faults', type: 'storaApi', data });
			// Every answer is the package's own message (its connection test function), on every n8n version.
			assert(result.status === 'OK' || (result.status === 'Error' && /Stora|Could not reach/.test(String(result.message ?? ''))), `${name}: ${JSON.stringify(result)}`);
			assert(!JSON.stringify(result).includes(sandbox.token), `${name}: the token is in the answer`);
			if (/^(429|500|502)/.test(name)) assert(result.status === 'Error' && /Stora/.test(result.message), `${name}: ${JSON.stringify(result)}`);
			if (/^reset/.test(name)) assert(result.status === 'Error' && /Could not reach/.test(result.message), `${name}: ${JSON.stringify(result)}`);
			// The sandbox's address changes with every run: the figure names it by its role.
			outcomes.push({ name, answer: result.status === 'OK' ? 'OK' : `“${String(result.message).replaceAll(sandbox.url, '<Base URL>')}”` });
		}
		await sandbox.control.clearFaults?.();
		// Faults with the same answer in one group: "429 with Retry-After, 429 without Retry-After: “Stora is ...”".
		const groups = new Map();
		for (const { name, answer } of outcomes) groups.set(answer, [...(groups.get(answer) ?? []), name]);
		recordFigures('reliability', 'credentialTest', {
			cells: [
				`The same ${outcomes.length} faults on n8n's credential test (n8n runs it once, without retries)`,
				'`test/e2e/run.mjs`',
				[...groups].map(([answer, names]) => `${names.join(', ')}: ${answer}`).join('; '),
			],
			figures: { faults: outcomes.length, ok: outcomes.filter((outcome) => outcome.answer === 'OK').length, n8n: N8N_VERSION },
		});
	});
	await check('Stora API credential: n8n\'s connection test names an unreachable host and a wrong Base URL in its own words', async () => {
		const closed = await freePort();
		const cases = [
			[`http://127.0.0.1:${closed}`, `Could not reach http://127.0.0.1:${closed}`],
			[`${sandbox.url}/2025-09`, 'the Base URL does not point at the Stora Public API'],
			['public-api.stora.co', 'is not a web address'],
		];
		for (const [baseUrl, expected] of cases) {
			const result = await n8n.testCredential({ id: ctx.credentials.accessToken?.id, name: 'wrong', type: 'storaApi', data: { baseUrl, accessToken: sandbox.token } });
			assertMatch(result, { status: 'Error', message: { $contains: expected } }, `credential test with Base URL ${baseUrl}`);
		}
	});
	// The sandbox forgets OAuth clients on reset, and every case starts from a reset: a case using client credentials
	// gets a new client and a new credential (so its first request is also the token request).
	ctx.freshClientCredentials = async () => {
		const client = await sandbox.control.oauthClient([callback]);
		ctx.credentials.oauth2ClientCredentials = await n8n.createCredential('Stora sandbox (client credentials)', 'storaOAuth2Api', {
			grantType: 'clientCredentials',
			baseUrl: sandbox.url,
			clientId: client.client_id,
			clientSecret: client.client_secret,
		});
		return client;
	};
	await check('Stora OAuth2 API credential (client credentials): created', async () => {
		await ctx.freshClientCredentials();
	});

	// Known n8n bugs of this version (versions.mjs): reproduced first with n8n's own nodes, so that a case one breaks is
	// reported as that bug (and not counted) only where this n8n really shows it.
	const reproduced = [];
	if (VERSION.knownBugs.length) console.log('\nKnown n8n bugs of this version');
	for (const id of VERSION.knownBugs) {
		const { title, reproduction } = KNOWN_N8N_BUGS[id];
		await check(`${id}: ${title} (reproduction: n8n's own nodes only)`, async () => {
			const workflow = await n8n.createWorkflow(reproduction.workflow);
			ctx.workflows.push(workflow);
			await n8n.activate(workflow);
			const answer = await n8n.callWebhook(reproduction.webhookPath, { body: {} });
			await n8n.deactivate(workflow);
			const shows = reproduction.shows(answer.body);
			if (shows) reproduced.push(id);
			log(`known n8n bug ${id}: ${shows ? 'shows' : 'does not show; the cases it affects count as usual'} (answer ${answer.text.slice(0, 200)})`);
		});
	}
	/** A check of a case (workflow file or example) that a reproduced known n8n bug may break: then reported as that bug. */
	const caseCheck = async (name, testCase, fn) =>
		await check(name, async () => {
			try {
				await fn();
			} catch (error) {
				const bug = reproduced.find((id) => KNOWN_N8N_BUGS[id].affects(testCase));
				throw bug ? new KnownN8nBug(bug, error) : error;
			}
		});

	console.log('\nWorkflows (test/e2e/workflows/*.json, Webhook → Stora)');
	for (const testCase of loadCases()) {
		await caseCheck(`${testCase.name} [${testCase.file}]`, testCase, () => runCase(testCase, ctx));
	}

	{
		// Where the docs' parameter lists are cut off, the real API may refuse what the node sends: every case again
		// (the --only ones with --only), with the sandbox rejecting undocumented parameters and sending only the
		// documented headers. Each must pass as before or end in an error that says which parameter Stora did not take.
		console.log('\nWorkflows again: undocumented parameters rejected (422), documented rate-limit headers only');
		await sandbox.control.configure({ unknown_params: 'reject', headers: 'documented' });
		ctx.answerOnly = true;
		const tally = { passed: 0, clearErrors: 0 };
		for (const testCase of loadCases()) {
			await caseCheck(`${testCase.name} [${testCase.file}]: right answer or a clear error`, testCase, async () => {
				try {
					await runCase(testCase, ctx);
					tally.passed++;
				} catch (error) {
					// A case a reproduced known n8n bug breaks has no clear error to look for: caseCheck reports the bug.
					if (reproduced.some((id) => KNOWN_N8N_BUGS[id].affects(testCase))) throw error;
					const workflow = ctx.workflows.at(-1);
					const execution = await n8n.lastExecution(workflow.id);
					// The Stora node's own error, not the items (an input item may quote anything).
					const errors = storaErrors(execution, workflow);
					assert(
						errors.some((text) => /did not apply the (filter|sort) |The node parameter .+ sent "/.test(text)),
						`neither the expected answer nor a clear error:\n${error.message}\nStora node errors: ${errors.join('\n---\n').slice(0, 600) || '(none)'}`,
					);
					await n8n.deactivate(workflow);
					tally.clearErrors++;
				}
			});
		}
		await sandbox.control.configure({ unknown_params: 'accept', headers: 'full' });
		ctx.answerOnly = false;
		const cases = tally.passed + tally.clearErrors;
		if (!args.only && cases === loadCases().length) {
			recordFigures('reliability', 'rejectPass', {
				cells: [
					'Every e2e workflow case again with undocumented parameters rejected (422) and documented rate-limit headers only',
					'`test/e2e/run.mjs`',
					`${tally.passed} cases give the expected answer, ${tally.clearErrors} stop with an error of the Stora node naming the parameter Stora refused; none silently wrong`,
				],
				figures: { cases, passed: tally.passed, clearErrors: tally.clearErrors, n8n: N8N_VERSION },
			});
		} else {
			console.log(`figures: reject + documented headers in real n8n: ${tally.passed} cases as expected, ${tally.clearErrors} clear errors naming the parameter`);
		}
	}

	const examples = args.only ? [] : loadExamples();
	if (examples.length) console.log('\nExample workflows (examples/*.json)');
	for (const { file, workflow } of examples) {
		await caseCheck(`${workflow.name} [examples/${file}] imports, publishes or runs, without errors`, workflow, () => runExample(workflow, ctx));
	}

	if (!args.only) {
		console.log('\nOAuth2 client credentials');
		await check('fetches a token on first use, and a new one after the sandbox expires it', () => clientCredentialsFlow(ctx));
	}

	if (!args.only) {
		console.log('\nCustom API Call: the HTTP Request node with a Stora credential (test/e2e/customApiCall.mjs)');
		await customApiCallChecks({ n8n, sandbox, ctx, check, assert });
	}

	// Started first and checked after the other trigger checks: a test listen nobody stops, which n8n's own 2-minute
	// timeout must end.
	let timeoutChecked;
	if (!args.only) {
		await sandbox.control.reset('demo');
		const credential = ctx.credentials.accessToken;
		console.log('\nStora Trigger as n8n runs it (test/e2e/triggerLife.mjs)');
		await check('a test listen left to itself registers one endpoint (n8n\'s timeout must remove it: checked below)', async () => {
			timeoutChecked = await listenUntilTimeout({ sandbox, tarball });
		});
		await check('Execute step, a new listen, Stop Listening, an event, a crash leftover, publish, save, republish, unpublish: Stora holds exactly the endpoints that should exist after each', async () => {
			const { steps } = await triggerLifecycle({ n8n, sandbox, credential });
			log(`${steps.length} steps: ${steps.join(' → ')}`);
		});
		for (const mode of ['fresh', 'first']) {
			await check(`no event lost (retries signed with the ${mode} timestamp): n8n cannot store the execution, Stora's retry starts it once with its data; a replay starts none`, async () => {
				const figures = await atLeastOnce({ n8n, sandbox, credential, mode, refusal: sqliteRefusal(n8n.userFolder) });
				log(`first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s), replay ${figures.replay}`);
			});
		}
		// n8n 1.123 answers before it stores: whether its execution survives a lock depends on when the lock ends.
		if (!VERSION.api.answersBeforeStoring) await check("no event lost when n8n's SQLite database is locked by another connection: n8n answers 500, Stora's retry starts the execution once", async () => {
			const figures = await atLeastOnce({ n8n, sandbox, credential, mode: 'fresh', refusal: sqliteLock(n8n.userFolder) });
			log(`locked database: first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s), replay ${figures.replay}`);
		});
		if (!VERSION.api.answersBeforeStoring) await check('no event lost when n8n stops while it handles a delivery: started again on its folder and port, Stora\'s retry starts the execution once', async () => {
			const figures = await stoppedMidDelivery({ sandbox, tarball });
			log(`n8n stopped mid-delivery: first attempt ${figures.first}, retry ${figures.retry}, ${figures.executions} execution(s)`);
		});
		await sandbox.control.configure({ retry_timestamp: 'fresh' });
		// Before any later check resets the sandbox (which would remove the endpoint for it).
		await check("n8n's 2-minute timeout ended the listen left to itself, and its endpoint is gone from Stora", async () => {
			assert(timeoutChecked, 'the listen was not started');
			await timeoutChecked();
		});
	}

	if (!args.only) {
		console.log('\nForged webhook deliveries');
		await check('Stora Trigger: every forged delivery is answered 4xx and starts nothing; every genuine one starts one execution', async () => {
			await sandbox.control.reset('demo');
			const testCase = {
				name: 'forged deliveries',
				// Version 1.1, what a new Stora Trigger is (the workflow cases keep version 1).
				workflow: { nodes: [{ name: 'Stora Trigger', type: TRIGGER_TYPE, typeVersion: 1.1, parameters: { events: ['contact.created'] } }, { name: 'Done', type: 'n8n-nodes-base.noOp', parameters: {} }] },
			};
			const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, 'unused'));
			ctx.workflows.push(workflow);
			const figures = await forgedDeliveries({ n8n, sandbox, workflow });
			recordFigures('reliability', 'forgedDeliveries', {
				cells: [
					'Forged webhook deliveries in a real n8n',
					'`test/realN8n/forged.mjs` (from `test/e2e/run.mjs`)',
					`${figures.forged} forged deliveries of ${figures.kinds} kinds (${figures.kindNames.join(', ')}) all answered 4xx with no execution; ${figures.genuine} genuine ones (seconds and milliseconds, hex and base64) started ${figures.executions} executions; ${figures.replayed} replays of genuine deliveries (as captured and re-signed) all answered 200 duplicate, no execution`,
				],
				figures: { forged: figures.forged, kinds: figures.kinds, genuine: figures.genuine, executions: figures.executions, replayed: figures.replayed, n8n: N8N_VERSION },
			});
		});
	}

	if (!args.only) {
		console.log('\nStora Poll Trigger');
		await check('the "new lead" example, published and polling every minute, emits each new lead once and creates its call task', () => pollFlow({ ...ctx, assert, assertMatch }));
		await check('keeps its cursor across an n8n restart: a lead created while n8n was down is emitted once, nothing earlier again', () =>
			pollAcrossRestart({ sandbox, tarball, assert, cleanups }),
		);
	}

	if (!args.only) {
		console.log('\nAt the record bound');
		await check('Return All hands real n8n exactly MAX_RECORDS items, each once, newest first; one more fails after one request', () =>
			returnAllAtTheBound({ n8n, assert, workflows: ctx.workflows }),
		);
	}

	// Stora as AI tools; `--only mcp` or `--only agent` runs one of them alone.
	const selects = (...names) => !args.only || names.some((name) => name.toLowerCase().includes(args.only.toLowerCase()));
	if (selects('mcp', 'ai tools')) {
		console.log('\nStora as AI tools: MCP Server Trigger and the official MCP client (test/e2e/mcp.mjs)');
		await mcpChecks({ ...ctx, check, assert, assertMatch, version: VERSION });
	}
	if (selects('agent', 'ai tools')) {
		console.log('\nStora as AI tools: AI Agent with an OpenAI-compatible chat model scripted by the test (test/e2e/agent.mjs)');
		await agentChecks({ ...ctx, check, assert, assertMatch, version: VERSION, cleanups });
	}

	if (!browser && !args.only) {
		// Chromium connects the credential in the editor (browser.mjs); without it, the same flow over n8n's REST API.
		console.log('\nOAuth2 authorization code with PKCE (connected over n8n\'s REST API, without Chromium)');
		let client;
		await check(`n8n's authorization URL → sandbox consent page → approved → n8n exchanges the code (${VERSION.api.pkceSwitch ? 'PKCE S256' : 'no PKCE: n8n before 2.41 ignores Use PKCE'}) and stores the tokens`, async () => {
			await sandbox.control.reset('demo');
			client = await sandbox.control.oauthClient([callback]);
			const credential = await n8n.createCredential('Stora sandbox (OAuth2)', 'storaOAuth2Api', authorizationCodeCredential(sandbox, client));
			await sandbox.control.clearRequests();
			// n8n before 2.41 ignores the credential's Use PKCE (versions.mjs, api.pkceSwitch; the README says so).
			const pkce = VERSION.api.pkceSwitch;
			await connectOAuth2(n8n, credential, sandbox, { pkce });
			const verifier = pkce ? { $regex: '^[A-Za-z0-9._~-]{43,128}$' } : { $absent: true };
			assertMatch(
				(await sandbox.control.requests()).filter((r) => r.path === '/oauth2/token'),
				[{ method: 'POST', status: 200, body: { grant_type: 'authorization_code', code_verifier: verifier, redirect_uri: callback } }],
				'token request of the code exchange',
			);
			ctx.credentials.oauth2AuthorizationCode = credential;
		});
		if (ctx.credentials.oauth2AuthorizationCode) {
			await check('workflow runs with the connected credential; after expiry n8n refreshes and persists the rotated refresh token', () =>
				authorizationCodeRefreshes(ctx, client, 'oauth2AuthorizationCode', 'e2e-oauth2-code'),
			);
		}
	}

	if (browser && !args.only) {
		const { browserChecks } = await import('./browser.mjs');
		await browserChecks({ ...ctx, check, assert, assertMatch, screenshots: args.screenshots, cleanups, callback, buildWorkflow, authorizationCodeRefreshes });
	}

	if (!args.only) await (await import('./npmStart.mjs')).npmStartChecks({ check, assert, cleanups });

	console.log('\nSecrets');
	await check("no token, client secret, refresh token or webhook secret in n8n's log, any execution's error or the sandbox's request log", async () => {
		collectSecrets(sandbox, secrets);
		const figures = await assertNoSecretLeaked({ n8n, sandbox, workflowIds: ctx.workflows.map((w) => w.id), secrets });
		// Only a full run has made every kind of request whose traces are searched.
		if (args.only) log(`secrets: ${figures.secrets} searched for in ${figures.places} places (${figures.bytes} bytes)`);
		else {
			recordFigures('reliability', 'secrets', {
				cells: [
					'Secrets',
					'`test/realN8n/secrets.mjs` (from `test/e2e/run.mjs`)',
					`none of ${figures.secrets} secrets (tokens, client secrets, refresh tokens, webhook secrets) in n8n's log, any execution's error or the sandbox's request log (${figures.places} places, ${Math.round(figures.bytes / 1000).toLocaleString('en')} kB searched)`,
				],
				figures: { ...figures, n8n: N8N_VERSION },
			});
		}
	});

	if (args.keep) {
		console.log(`\n--keep: n8n ${n8n.base} (${'owner@example.com'}), sandbox ${sandbox.url}; Ctrl-C stops them`);
		await new Promise(() => {});
	}
}

/** An example: imported with the run's credentials; manual ones are executed, webhook ones published and called. */
async function runExample(example, ctx) {
	const { n8n, sandbox } = ctx;
	await sandbox.control.reset('demo');
	await ctx.freshClientCredentials();
	const workflow = await n8n.createWorkflow(
		withCredentials(example, { storaApi: ctx.credentials.accessToken, storaOAuth2Api: ctx.credentials.oauth2ClientCredentials }),
	);
	const trigger = triggerOf(example);
	const storaNodes = example.nodes.filter((n) => n.type === NODE_TYPE).map((n) => n.name);
	if (trigger.kind === 'manual') {
		const execution = await n8n.runManually(workflow.id, trigger.node.name);
		const error = execution.data?.resultData?.error;
		assert(execution.status === 'success', `execution ${execution.status}: ${error?.message ?? ''} ${error?.description ?? ''}`);
		const runData = execution.data.resultData.runData;
		for (const name of storaNodes) {
			const items = runData[name]?.[0]?.data?.main?.flat() ?? [];
			assert(items.length > 0, `node "${name}" returned no items`);
		}
		return;
	}
	await n8n.activate(workflow);
	if (trigger.kind === 'webhook') {
		const [site] = await sandbox.control.state('sites');
		const { httpMethod = 'GET', path: webhookPath } = trigger.node.parameters;
		const response = await n8n.callWebhook(webhookPath, { method: httpMethod, query: { id: site.id }, body: httpMethod === 'GET' ? undefined : { id: site.id } });
		assert(response.status < 500, `webhook answered ${response.status}: ${response.text.slice(0, 300)}`);
	}
	await n8n.deactivate(workflow);
}

/** Client credentials: the token request happens on first use, and again after the sandbox expires the token. */
async function clientCredentialsFlow(ctx) {
	const { n8n, sandbox } = ctx;
	await sandbox.control.reset('demo');
	const client = await ctx.freshClientCredentials();
	const testCase = {
		file: 'oauth2-client-credentials.json',
		name: 'OAuth2 client credentials',
		credential: 'oauth2ClientCredentials',
		workflow: { nodes: [{ name: 'Stora', parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 } }] },
	};
	const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, 'e2e-oauth2-cc'));
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	const [firstSite] = await sandbox.control.state('sites');

	await sandbox.control.clearRequests();
	let response = await n8n.callWebhook('e2e-oauth2-cc', { body: {} });
	assertMatch(response, { status: 200, body: { $length: 1 } }, `first run (${response.text.slice(0, 300)})`);
	assert(typeof firstSite?.id === 'string', 'no site in the demo seed');
	assertMatch(
		await sandbox.control.requests(),
		[
			{ method: 'POST', path: '/oauth2/token', status: 200, body: { grant_type: 'client_credentials' } },
			{ method: 'GET', path: '/2025-09/sites', status: 200, headers: { authorization: 'Bearer ***' } },
		],
		'sandbox requests of the first run',
	);

	// Expire exactly the token n8n holds (the sandbox runs in this process, so its token store is at hand).
	const clientId = client.client_id;
	const tokens = [...sandbox.core.auth.tokens.values()].filter((t) => t.clientId === clientId);
	assert(tokens.length === 1, `expected one token for the client, found ${tokens.length}`);
	await sandbox.control.expireTokens(tokens[0].token);

	await sandbox.control.clearRequests();
	response = await n8n.callWebhook('e2e-oauth2-cc', { body: {} });
	assertMatch(response, { status: 200, body: { $length: 1 } }, `run after expiry (${response.text.slice(0, 300)})`);
	assertMatch(
		await sandbox.control.requests(),
		afterExpiry({ method: 'GET', path: '/2025-09/sites' }, { method: 'POST', path: '/oauth2/token', status: 200, body: { grant_type: 'client_credentials' } }),
		'sandbox requests after the token expired',
	);
	await n8n.deactivate(workflow);
}

/**
 * The requests an expired OAuth2 token costs on this n8n: n8n 2.x refreshes on the first 401; n8n 1.x hands the 401
 * back, and the package sends the request once more for n8n to refresh (versions.mjs, api.statusErrorExceptions).
 */
function afterExpiry(request, tokenRequest) {
	const rejected = Array.from({ length: VERSION.api.statusErrorExceptions ? 1 : 2 }, () => ({ ...request, status: 401 }));
	return [...rejected, tokenRequest, { ...request, status: 200 }];
}

/**
 * A workflow with an authorization-code credential (`credentialKey` in ctx.credentials, `client` its sandbox client):
 * it runs with the stored token; then, twice, the sandbox expires the access token and n8n must refresh it with the
 * refresh token issued last (the sandbox revokes each one presented), which proves the rotated one was stored.
 */
async function authorizationCodeRefreshes(ctx, client, credentialKey, webhookPath) {
	const { n8n, sandbox } = ctx;
	const testCase = {
		file: `${webhookPath}.json`,
		name: 'OAuth2 authorization code',
		credential: credentialKey,
		workflow: { nodes: [{ name: 'Stora', parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 2 } }] },
	};
	const workflow = await n8n.createWorkflow(buildWorkflow(testCase, ctx.credentials, webhookPath));
	ctx.workflows.push(workflow);
	await n8n.activate(workflow);
	const auth = sandbox.core.auth;
	const refreshTokens = () => [...auth.refreshTokens.values()].filter((t) => t.clientId === client.client_id);
	const accessTokens = () => [...auth.tokens.values()].filter((t) => t.clientId === client.client_id && !t.revoked);

	await sandbox.control.clearRequests();
	let response = await n8n.callWebhook(webhookPath, { body: {} });
	assertMatch(response, { status: 200, body: { $length: 2 } }, `run with the stored token (${response.text.slice(0, 300)})`);
	assertMatch(await sandbox.control.requests(), [{ method: 'GET', path: '/2025-09/sites', status: 200 }], 'requests of the first run');

	const [first] = refreshTokens();
	for (const round of [1, 2]) {
		const [current] = accessTokens().slice(-1);
		const presented = refreshTokens().find((t) => !t.revoked);
		await sandbox.control.expireTokens(current.token);
		await sandbox.control.clearRequests();
		response = await n8n.callWebhook(webhookPath, { body: {} });
		assertMatch(response, { status: 200, body: { $length: 2 } }, `run ${round} after the access token expired (${response.text.slice(0, 300)})`);
		assertMatch(
			await sandbox.control.requests(),
			afterExpiry(
				{ method: 'GET', path: '/2025-09/sites' },
				{ method: 'POST', path: '/oauth2/token', status: 200, body: { grant_type: 'refresh_token', refresh_token: presented.token } },
			),
			`requests of refresh ${round} (n8n must present the refresh token issued last)`,
		);
		assert(presented.revoked, `refresh ${round}: the sandbox did not revoke the presented refresh token`);
	}
	assert(first.revoked && refreshTokens().filter((t) => !t.revoked).length === 1, 'expected exactly one live refresh token after two rotations');
	await n8n.deactivate(workflow);
	// The request log keeps refresh tokens visible (the rotation is proven with them): not for the secrets check.
	await sandbox.control.clearRequests();
}

await runSuite(main);
