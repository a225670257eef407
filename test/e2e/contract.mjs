// What n8n promises the user of any node, kept by the Stora nodes in real n8n.
// - The settings n8n adds to the Stora action node (Settings → Request Options: Proxy, Timeout, Batching, Ignore SSL
//   Issues), each with a piece of this run that sees whether it was applied: a forward proxy (test/realN8n/proxy.mjs),
//   the sandbox's latency and request log, an https front with a self-signed certificate (test/realN8n/tls.mjs).
// - A credential's Allowed HTTP Request Domains (an admin's limit) on the action node, both triggers and, beside them,
//   n8n's own HTTP Request node with the same credential.
// - Item linking: `$('<earlier node>').item` after a Stora node that returns several items per input, and an error
//   output keeping the failed input's data.
// - Both Stora credentials offered by n8n's HTTP Request node under Predefined Credential Type: here as the editor
//   reads the credential types (REST); browser/credentialPicker.mjs picks them in Chromium.
// `--only n8n-contract` runs these checks alone (and the Chromium one, where the run has Chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { KnownN8nBug } from '../realN8n/harness.mjs';
import { log, randomId } from '../realN8n/n8n.mjs';
import { startForwardProxy } from '../realN8n/proxy.mjs';
import { certificateUnavailable, selfSignedCertificate, startTlsFront } from '../realN8n/tls.mjs';
import { until } from '../realN8n/wait.mjs';
import {
	chain,
	codeNode,
	httpRequestNode,
	manualTriggerNode,
	node,
	noOpNode,
	STORA_POLL_TRIGGER,
	storaNode,
	storaTriggerNode,
} from '../realN8n/workflow.mjs';

/** What `--only` names to run this file's checks alone (no workflow case file holds it). */
export const CONTRACT_ONLY = 'n8n-contract';

/** The error an execution stopped with: its message and description, on one line. */
function errorText(execution) {
	const error = execution.data?.resultData?.error ?? {};
	return `${error.message ?? ''} ${error.description ?? ''}`.replace(/\s+/g, ' ').trim();
}

/** The items of output `output` of node `name` in an execution's first run of it. */
const itemsOf = (execution, name, output = 0) =>
	execution.data?.resultData?.runData?.[name]?.[0]?.data?.main?.[output] ?? [];

/** The API calls in the sandbox's request log, as `METHOD /path`. */
const apiCalls = async (sandbox) =>
	(await sandbox.control.requests()).map((r) => `${r.method} ${r.path}`);

/** Waits until every call the sandbox logged has been answered (a call held by the latency shows status null). */
async function untilAnswered(sandbox) {
	await until(
		async () => (await sandbox.control.requests()).every((r) => r.status !== null),
		'the sandbox to answer every call it holds',
		{
			timeoutMs: 30_000,
			every: 200,
		},
	);
}

export async function contractChecks(ctx) {
	const { n8n, sandbox, check, assert, cleanups } = ctx;
	console.log(
		"\nn8n's contract: Request Options, Allowed HTTP Request Domains, item linking, the credential picker (test/e2e/contract.mjs)",
	);
	const token = ctx.credentials.accessToken;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-contract-'));
	cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
	// Started once for every check below; stopped at the end of the run.
	const proxy = await startForwardProxy({ username: 'e2e', password: randomId() });
	cleanups.push(() => proxy.close());
	const noCertificate = certificateUnavailable();
	const front = noCertificate
		? undefined
		: await startTlsFront(sandbox.port, selfSignedCertificate(dir));
	if (front) cleanups.push(() => front.close());

	/** Saves a workflow of `nodes` after a Manual Trigger (connections given, or a chain), runs it as the editor does. */
	const runManual = async (name, nodes, connections) => {
		const workflow = chain(`n8n contract: ${name}`, [manualTriggerNode(), ...nodes]);
		if (connections) Object.assign(workflow.connections, connections);
		const saved = await n8n.createWorkflow(workflow);
		ctx.workflows.push(saved);
		return await n8n.runManually(saved.id, 'Start', { timeoutMs: 120_000 });
	};
	const siteGetMany = (requestOptions, credential = token, name = 'Stora') =>
		storaNode(
			name,
			{
				resource: 'site',
				operation: 'getAll',
				returnAll: false,
				limit: 2,
				...(requestOptions ? { requestOptions } : {}),
			},
			credential,
		);

	await check(
		"Proxy: every request of Site → Get Many and Contact → Create goes through the proxy of Request Options (user:pass in its URL), the proxy's log matching the sandbox's; without it the proxy sees none",
		async () => {
			await sandbox.control.reset('demo');
			proxy.log.length = 0;
			const email = `proxy-${randomId()}@example.com`;
			const nodes = (requestOptions) => [
				siteGetMany(requestOptions),
				storaNode(
					'Create contact',
					{
						resource: 'contact',
						operation: 'create',
						email,
						additionalFields: {},
						...(requestOptions ? { requestOptions } : {}),
					},
					token,
					{
						executeOnce: true,
					},
				),
			];
			const through = await runManual('Proxy', nodes({ proxy: proxy.url }));
			assert(
				through.status === 'success',
				`with the proxy set the run ended ${through.status}: ${errorText(through)} (proxy log: ${JSON.stringify(proxy.log).slice(0, 300)})`,
			);
			const seen = await apiCalls(sandbox);
			const proxied = proxy.log.map(
				(entry) =>
					`${entry.method} ${URL.canParse(entry.url) ? new URL(entry.url).pathname : entry.url}`,
			);
			assert(
				proxy.log.length > 0,
				`the proxy saw no request; the sandbox saw ${seen.join(', ')}: the Proxy setting is not applied`,
			);
			const refused = proxy.log.filter((entry) => !entry.authorized);
			assert(
				refused.length === 0,
				`the proxy refused ${refused.length} request(s) without the Proxy-Authorization of the user:pass in the proxy URL`,
			);
			assert(
				JSON.stringify(proxied) === JSON.stringify(seen),
				`the proxy saw ${proxied.join(', ')}; the sandbox saw ${seen.join(', ')}`,
			);
			assert(
				seen.includes('GET /2025-09/sites') && seen.includes('POST /2025-09/contacts'),
				`the sandbox saw ${seen.join(', ')}`,
			);

			await sandbox.control.clearRequests();
			proxy.log.length = 0;
			const direct = await runManual(
				'No proxy',
				nodes(undefined).map((n) =>
					n.name === 'Create contact'
						? { ...n, parameters: { ...n.parameters, email: `direct-${email}` } }
						: n,
				),
			);
			assert(
				direct.status === 'success',
				`without the proxy the run ended ${direct.status}: ${errorText(direct)}`,
			);
			assert(
				proxy.log.length === 0,
				`without the Proxy setting the proxy still saw ${proxy.log.map((e) => `${e.method} ${e.url}`).join(', ')}`,
			);
			log(
				`proxy: ${proxied.length} requests through it (${proxied.join(', ')}), none without the setting`,
			);
		},
	);

	await check(
		'Timeout: with Request Options → Timeout 1 s and the sandbox answering after 5 s, the run fails with an error naming the Timeout setting',
		async () => {
			await sandbox.control.reset('demo');
			await sandbox.control.configure({ latency_ms: 5000 });
			try {
				const started = Date.now();
				const execution = await runManual('Timeout', [siteGetMany({ timeout: 1000 })]);
				const text = errorText(execution);
				assert(
					execution.status === 'error',
					`the run ended ${execution.status} although every answer took 5 s and the Timeout is 1 s`,
				);
				assert(
					text.includes('Timeout') && text.includes('Request Options'),
					`the error does not name the Timeout setting (Request Options → Timeout): "${text.slice(0, 400)}"`,
				);
				log(
					`timeout: failed after ${((Date.now() - started) / 1000).toFixed(1)} s with ${(await sandbox.control.requests()).length} attempt(s): "${text.slice(0, 160)}"`,
				);
			} finally {
				await sandbox.control.configure({ latency_ms: 0 });
				await untilAnswered(sandbox);
			}
		},
	);

	await check(
		'Batching: 3 items through Site → Get with Request Options → Batching (1 item per batch, 1,000 ms interval) reach the sandbox at least 0.9 s apart',
		async () => {
			await sandbox.control.reset('demo');
			const ids = (await sandbox.control.state('sites')).slice(0, 3).map((site) => site.id);
			const execution = await runManual('Batching', [
				codeNode('Sites', `return ${JSON.stringify(ids.map((id) => ({ json: { id } })))};`),
				storaNode(
					'Stora',
					{
						resource: 'site',
						operation: 'get',
						siteId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 1000 } } },
					},
					token,
				),
			]);
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${errorText(execution)}`,
			);
			const calls = (await sandbox.control.requests()).filter(
				(r) => r.method === 'GET' && r.path.startsWith('/2025-09/sites/'),
			);
			assert(
				calls.length === 3,
				`${calls.length} Site → Get calls instead of 3: ${calls.map((r) => r.path).join(', ')}`,
			);
			// The batch's wait puts 1,000 ms between two sends; 100 ms of it is left for the first call taking longer to arrive.
			const gaps = calls.slice(1).map((call, i) => Date.parse(call.at) - Date.parse(calls[i].at));
			assert(
				gaps.every((gap) => gap >= 900),
				`the calls arrived ${gaps.join(' ms and ')} ms apart: Batching is not applied`,
			);
			log(`batching: calls ${gaps.join(' ms, ')} ms apart`);
		},
	);

	await check(
		'Ignore SSL Issues: an https Base URL with a self-signed certificate fails naming the certificate, and works with Request Options → Ignore SSL Issues',
		async () => {
			assert(front, `no https sandbox: ${noCertificate}`);
			await sandbox.control.reset('demo');
			const https = await n8n.createCredential('Stora sandbox (https, self-signed)', 'storaApi', {
				baseUrl: front.url,
				accessToken: sandbox.token,
			});
			ctx.credentials.https = https;
			const refused = await runManual('Self-signed, checked', [siteGetMany(undefined, https)]);
			assert(
				refused.status === 'error',
				`without Ignore SSL Issues the run ended ${refused.status} against a self-signed certificate`,
			);
			assert(
				/certificate/i.test(errorText(refused)),
				`the error does not mention the certificate: "${errorText(refused).slice(0, 400)}"`,
			);
			const leaked = await apiCalls(sandbox);
			assert(
				leaked.length === 0,
				`the sandbox got ${leaked.join(', ')} through a certificate that was refused`,
			);
			const accepted = await runManual('Self-signed, ignored', [
				siteGetMany({ allowUnauthorizedCerts: true }, https),
			]);
			assert(
				accepted.status === 'success',
				`with Ignore SSL Issues the run ended ${accepted.status}: ${errorText(accepted)}`,
			);
			assert(
				itemsOf(accepted, 'Stora').length === 2,
				`with Ignore SSL Issues: ${itemsOf(accepted, 'Stora').length} sites instead of 2`,
			);
			assert(
				(await apiCalls(sandbox)).includes('GET /2025-09/sites'),
				'the sandbox saw no GET /2025-09/sites over https',
			);
		},
	);

	await check(
		'Proxy to an https Base URL: the node tunnels through the proxy (CONNECT, with its user:pass), Ignore SSL Issues set',
		async () => {
			assert(
				front && ctx.credentials.https,
				`no https sandbox: ${noCertificate ?? 'the check before did not make its credential'}`,
			);
			// n8n's own HTTP Request node the same way first: whether this n8n can skip the certificate check in a tunnel.
			proxy.log.length = 0;
			const theirs = await runManual('Proxy to https, HTTP Request', [
				httpRequestNode(
					'HTTP Request',
					'storaApi',
					ctx.credentials.https,
					`${front.url}/2025-09/sites?limit=1`,
					{ proxy: proxy.url, allowUnauthorizedCerts: true },
				),
			]);
			await sandbox.control.reset('demo');
			proxy.log.length = 0;
			const execution = await runManual('Proxy to https', [
				siteGetMany({ proxy: proxy.url, allowUnauthorizedCerts: true }, ctx.credentials.https),
			]);
			// n8n's node says "SSL Issue: consider using the 'Ignore SSL issues' option" (NodeSslError), the Stora node names the certificate.
			const certificateError = (run) =>
				run.status !== 'success' && /certificate|SSL/i.test(errorText(run));
			if (certificateError(execution) && certificateError(theirs)) {
				throw new KnownN8nBug(
					'proxy-tunnel-checks-certificate',
					new Error(
						`the Stora node: "${errorText(execution).slice(0, 160)}"; n8n's HTTP Request node the same way: "${errorText(theirs).slice(0, 160)}"`,
					),
				);
			}
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${errorText(execution)} (proxy log: ${JSON.stringify(proxy.log).slice(0, 300)}; n8n's HTTP Request node the same way: ${theirs.status} ${errorText(theirs).slice(0, 200)})`,
			);
			const tunnels = proxy.log.filter(
				(entry) =>
					entry.method === 'CONNECT' &&
					entry.url === `127.0.0.1:${front.port}` &&
					entry.authorized &&
					entry.status === 200,
			);
			assert(
				tunnels.length > 0,
				`the proxy opened no tunnel to 127.0.0.1:${front.port}: ${JSON.stringify(proxy.log).slice(0, 400)}`,
			);
			assert(
				proxy.log.every((entry) => entry.method === 'CONNECT'),
				`the proxy was also asked for ${proxy.log
					.filter((e) => e.method !== 'CONNECT')
					.map((e) => `${e.method} ${e.url}`)
					.join(', ')}`,
			);
			assert(
				(await apiCalls(sandbox)).includes('GET /2025-09/sites'),
				'the sandbox saw no GET /2025-09/sites through the tunnel',
			);
		},
	);

	await domainChecks(ctx, { runManual, siteGetMany });
	await itemLinkingChecks(ctx, { runManual });
	await credentialTypeChecks(ctx);
}

/**
 * Allowed HTTP Request Domains: a Stora API credential limited to `public-api.stora.co`, its Base URL the sandbox. n8n's
 * RoutingNode puts the list on its declarative nodes' requests on each supported n8n, so Site → Get Many is refused
 * before any request, naming the setting and the host; n8n's HTTP Request node does what this n8n does for it
 * (versions.mjs, httpRequestChecksDomains), and the triggers are checked where it refuses. Limited to 127.0.0.1, all work.
 */
async function domainChecks(ctx, { runManual, siteGetMany }) {
	const { n8n, sandbox, check, assert, version } = ctx;
	const limited = (allowedDomains, name) =>
		n8n.createCredential(name, 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: sandbox.token,
			allowedHttpRequestDomains: 'domains',
			allowedDomains,
		});
	let outside;
	let inside;
	const httpRequest = (credential) =>
		httpRequestNode('HTTP Request', 'storaApi', credential, `${sandbox.url}/2025-09/sites?limit=1`);
	const names = (text) =>
		text.includes('Allowed HTTP Request Domains') && text.includes('127.0.0.1');

	const enforces = version.api.httpRequestChecksDomains;
	await check(
		`Allowed HTTP Request Domains: a credential limited to public-api.stora.co stops Site → Get Many before any request, naming the setting and 127.0.0.1; n8n's HTTP Request node with it ${enforces ? 'refuses too' : `sends the request (n8n ${version.n8n} checks only redirects there)`}`,
		async () => {
			outside = await limited(
				'public-api.stora.co',
				'Stora sandbox (limited to public-api.stora.co)',
			);
			await sandbox.control.reset('demo');
			const stora = await runManual('Domain limit, Stora', [siteGetMany(undefined, outside)]);
			assert(
				stora.status === 'error',
				`the Stora node's run ended ${stora.status}: the credential's Allowed HTTP Request Domains is not applied`,
			);
			assert(
				names(errorText(stora)),
				`the error does not name Allowed HTTP Request Domains and 127.0.0.1: "${errorText(stora).slice(0, 400)}"`,
			);
			const sent = await apiCalls(sandbox);
			assert(
				sent.length === 0,
				`the Stora node sent ${sent.join(', ')} to a domain its credential does not allow`,
			);

			const theirs = await runManual('Domain limit, HTTP Request', [httpRequest(outside)]);
			const theirsSent = await apiCalls(sandbox);
			if (enforces) {
				assert(
					theirs.status === 'error' && theirsSent.length === 0,
					`n8n's HTTP Request node ended ${theirs.status} and sent ${theirsSent.join(', ') || 'nothing'}; this n8n is known to refuse (versions.mjs)`,
				);
				assert(
					/Domain not allowed/.test(errorText(theirs)),
					`n8n's HTTP Request node refused with "${errorText(theirs).slice(0, 300)}"`,
				);
			} else {
				assert(
					theirs.status === 'success' && theirsSent.includes('GET /2025-09/sites'),
					`n8n's HTTP Request node ended ${theirs.status} (${errorText(theirs).slice(0, 200)}), sent ${theirsSent.join(', ') || 'nothing'}; n8n ${version.n8n} was known to send it (versions.mjs: httpRequestChecksDomains false)`,
				);
			}
			log(
				`domains: the Stora node refused: "${errorText(stora).slice(0, 200)}"; n8n's HTTP Request node ${theirs.status === 'error' ? `refused: "${errorText(theirs).slice(0, 120)}"` : 'sent the request'}`,
			);
		},
	);

	await check(
		"Allowed HTTP Request Domains: limited to 127.0.0.1, Site → Get Many and n8n's HTTP Request node with the credential both work",
		async () => {
			inside = await limited('127.0.0.1', 'Stora sandbox (limited to 127.0.0.1)');
			await sandbox.control.reset('demo');
			const stora = await runManual('Domain allowed, Stora', [siteGetMany(undefined, inside)]);
			assert(
				stora.status === 'success' && itemsOf(stora, 'Stora').length === 2,
				`the Stora node's run ended ${stora.status}: ${errorText(stora)}`,
			);
			const theirs = await runManual('Domain allowed, HTTP Request', [httpRequest(inside)]);
			assert(
				theirs.status === 'success',
				`n8n's HTTP Request node's run ended ${theirs.status}: ${errorText(theirs)}`,
			);
		},
	);

	if (!enforces) return;
	await check(
		'Allowed HTTP Request Domains: publishing a Stora Trigger with the limited credential fails naming the setting, registers nothing and sends nothing',
		async () => {
			assert(outside, 'the limited credential was not made');
			await sandbox.control.reset('demo');
			const workflow = await n8n.createWorkflow(
				chain('n8n contract: Domain limit, Stora Trigger', [
					storaTriggerNode('Stora Trigger', { events: ['contact.created'] }, outside),
					noOpNode(),
				]),
			);
			ctx.workflows.push(workflow);
			const refusal = await n8n.activate(workflow).then(
				() => undefined,
				(error) => error.message,
			);
			await n8n.deactivate(workflow).catch(() => {});
			assert(
				refusal,
				'publishing succeeded: the Stora Trigger registered its webhook with a credential that does not allow the sandbox',
			);
			assert(
				refusal.includes('Allowed HTTP Request Domains'),
				`publishing failed without naming Allowed HTTP Request Domains: ${refusal.slice(0, 400)}`,
			);
			const sent = await apiCalls(sandbox);
			assert(sent.length === 0, `the Stora Trigger sent ${sent.join(', ')}`);
			const endpoints = await sandbox.control.state('webhook_endpoints');
			assert(endpoints.length === 0, `${endpoints.length} webhook endpoint(s) registered`);
		},
	);

	await check(
		'Allowed HTTP Request Domains: publishing a Stora Polling Trigger with the limited credential fails (its first poll) naming the setting, and sends nothing',
		async () => {
			assert(outside, 'the limited credential was not made');
			await sandbox.control.reset('demo');
			const trigger = storaNode(
				'New lead',
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					pollResource: 'contact',
					event: 'created',
					filters: {},
				},
				outside,
				{
					type: STORA_POLL_TRIGGER,
				},
			);
			const workflow = await n8n.createWorkflow(
				chain('n8n contract: Domain limit, Stora Polling Trigger', [trigger, noOpNode()]),
			);
			ctx.workflows.push(workflow);
			const refusal = await n8n.activate(workflow).then(
				() => undefined,
				(error) => error.message,
			);
			await n8n.deactivate(workflow).catch(() => {});
			assert(
				refusal,
				'publishing succeeded: the first poll ran with a credential that does not allow the sandbox',
			);
			assert(
				refusal.includes('Allowed HTTP Request Domains'),
				`publishing failed without naming Allowed HTTP Request Domains: ${refusal.slice(0, 400)}`,
			);
			const sent = await apiCalls(sandbox);
			assert(sent.length === 0, `the Stora Polling Trigger sent ${sent.join(', ')}`);
		},
	);
}

/**
 * Item linking: Split Out → Stora (2 records per input item) → Edit Fields reading `$('Split Out').item`; and an
 * error output after Contact → Get of one missing contact of two.
 */
async function itemLinkingChecks(ctx, { runManual }) {
	const { sandbox, check, assert, credentials } = ctx;
	await check(
		"Item linking: Split Out (4 items) → Site → Get Many (Limit 2: 8 items) → Edit Fields with $('Split Out').item gives each item its own tag",
		async () => {
			await sandbox.control.reset('demo');
			const execution = await runManual('Item linking', [
				codeNode(
					'Tags',
					"return [{ json: { tags: ['a', 'b'] } }, { json: { tags: ['c', 'd'] } }];",
				),
				node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'tags', options: {} }),
				storaNode(
					'Stora',
					{ resource: 'site', operation: 'getAll', returnAll: false, limit: 2 },
					credentials.accessToken,
				),
				node('Edit Fields', 'n8n-nodes-base.set', 3.4, {
					mode: 'manual',
					assignments: {
						assignments: [
							{
								id: 'tag',
								name: 'tag',
								value: "={{ $('Split Out').item.json.tags }}",
								type: 'string',
							},
							{ id: 'site', name: 'site', value: '={{ $json.id }}', type: 'string' },
						],
					},
					options: {},
				}),
			]);
			const paired = itemsOf(execution, 'Stora').map((item) =>
				JSON.stringify(item.pairedItem ?? null),
			);
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${errorText(execution)} (the Stora items' pairedItem: ${paired.join(' ')})`,
			);
			const stora = itemsOf(execution, 'Stora');
			assert(stora.length === 8, `the Stora node gave ${stora.length} items instead of 8`);
			const tags = itemsOf(execution, 'Edit Fields').map((item) => item.json.tag);
			const expected = ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd'];
			assert(
				JSON.stringify(tags) === JSON.stringify(expected),
				`Edit Fields gave the tags ${JSON.stringify(tags)}, expected ${JSON.stringify(expected)} (pairedItem: ${paired.join(' ')})`,
			);
		},
	);

	await check(
		"Item linking: Contact → Get with Continue (using error output), one missing contact of two: the error output's item keeps its input's fields, the other goes to the success output",
		async () => {
			await sandbox.control.reset('demo');
			const [contact] = await sandbox.control.state('contacts');
			const missing = `con_${'0'.repeat(contact.id.length - 4)}`;
			const inputs = [
				{ contactId: contact.id, marker: 'first' },
				{ contactId: missing, marker: 'second' },
			];
			const get = storaNode(
				'Stora',
				{
					resource: 'contact',
					operation: 'get',
					contactId: { __rl: true, mode: 'id', value: '={{ $json.contactId }}' },
				},
				credentials.accessToken,
				{
					onError: 'continueErrorOutput',
				},
			);
			const found = noOpNode('Found');
			const failed = noOpNode('Failed');
			const execution = await runManual(
				'Error output',
				[
					codeNode('Contacts', `return ${JSON.stringify(inputs.map((json) => ({ json })))};`),
					get,
					found,
					failed,
				],
				{
					Stora: {
						main: [
							[{ node: 'Found', type: 'main', index: 0 }],
							[{ node: 'Failed', type: 'main', index: 0 }],
						],
					},
				},
			);
			assert(
				execution.status === 'success',
				`the run ended ${execution.status}: ${errorText(execution)}`,
			);
			const success = itemsOf(execution, 'Stora', 0);
			const errors = itemsOf(execution, 'Stora', 1);
			assert(
				success.length === 1 && success[0].json.id === contact.id,
				`the success output holds ${JSON.stringify(success.map((item) => item.json.id ?? item.json))}`,
			);
			assert(errors.length === 1, `the error output holds ${errors.length} items`);
			const [error] = errors;
			assert(
				error.json.marker === 'second' && error.json.contactId === missing,
				`the error output's item does not carry its input's fields: ${JSON.stringify(error.json).slice(0, 400)} (pairedItem ${JSON.stringify(error.pairedItem ?? null)})`,
			);
			assert(
				error.json.error !== undefined,
				`the error output's item has no error: ${JSON.stringify(error.json).slice(0, 300)}`,
			);
		},
	);
}

/**
 * The HTTP Request node's Credential Type lists a credential type when it has `authenticate` (or extends an OAuth
 * type); the editor reads the types from /types/credentials.json, where a function does not survive JSON. Checked
 * here on every version (1.123 runs without Chromium); browser/credentialPicker.mjs picks them in the editor.
 */
async function credentialTypeChecks({ n8n, check, assert }) {
	await check(
		"Credential picker (REST, as the editor reads it: /types/credentials.json): Stora API has an authenticate object and Stora OAuth2 API extends oAuth2Api, so n8n's HTTP Request node offers both under Predefined Credential Type",
		async () => {
			const types = await n8n.request('GET', '/types/credentials.json');
			assert(
				Array.isArray(types),
				`/types/credentials.json answered ${JSON.stringify(types).slice(0, 200)}`,
			);
			const api = types.find((type) => type.name === 'storaApi');
			const oauth2 = types.find((type) => type.name === 'storaOAuth2Api');
			assert(
				api && oauth2,
				`the credential types lack ${api ? '' : 'storaApi '}${oauth2 ? '' : 'storaOAuth2Api'}`,
			);
			assert(
				api.authenticate && typeof api.authenticate === 'object',
				`storaApi's authenticate as the editor reads it: ${JSON.stringify(api.authenticate)} (the filter is has:authenticate)`,
			);
			assert(
				(oauth2.extends ?? []).includes('oAuth2Api'),
				`storaOAuth2Api extends ${JSON.stringify(oauth2.extends)}`,
			);
		},
	);
}
