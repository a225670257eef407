// "A delivery whose response n8n never ends" (issue 53), in a real n8n of its own. n8n 2.x answers a Stora delivery
// only once its execution is stored and has a slot (N8N_CONCURRENCY_PRODUCTION_LIMIT, a user setting): with the one
// slot held by another workflow's execution, the first attempt of an event waits with no answer, as long as the slot
// is held, which is how a hung database or a full queue looks to Stora. Meanwhile a retry of it is answered 503
// `pending`, also just before PENDING_CLAIM_SECONDS; past that bound a retry starts the event as new (its own
// execution, also waiting); once the slot frees, both run: at least once, never zero. n8n 1.x answers before it
// stores, so its first attempt is answered 200 at once and a retry is a duplicate. The bound is passed without waiting
// for it: n8n is started with test/realN8n/clock.cjs, and its Date.now() moved forward.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { freePort, log, startN8n, VERSION } from '../../realN8n/n8n.mjs';
import { contactCreatedBody, signature } from '../../realN8n/sign.mjs';
import { endpointsOf, publish, triggerWorkflow } from '../../realN8n/triggerRoutes.mjs';
import { until } from '../../realN8n/wait.mjs';
import { chain, node, webhookNode } from '../../realN8n/workflow.mjs';

/** What `--only` names to run the trigger's delivery checks alone (this file's and concurrentDeliveries.mjs's). */
export const DELIVERIES_ONLY = 'trigger-deliveries';
/** PENDING_CLAIM_SECONDS in nodes/Stora/helpers/signature.ts: the check passes it by a few seconds either side. */
const BOUND = 120;
const CLOCK = fileURLToPath(new URL('../../realN8n/clock.cjs', import.meta.url));

/** An HTTP server that holds every request until `release()`, then answers them all and any later one at once. */
async function holdServer() {
	const held = [];
	let released = false;
	const server = http.createServer((req, res) => {
		const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"released":true}');
		if (released) answer();
		else held.push(answer);
	});
	const port = await freePort();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}/hold`,
		held: () => held.length,
		release: () => {
			released = true;
			held.splice(0).forEach((answer) => answer());
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Posts one signed delivery; resolves with its status and JSON body when n8n answers. */
async function post(url, secret, body) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-stora-signature': signature(secret, body) },
		body,
		signal: AbortSignal.timeout(120_000),
	});
	const text = await res.text();
	try {
		return { status: res.status, body: JSON.parse(text) };
	} catch {
		return { status: res.status, body: text };
	}
}

export async function hungDeliveryChecks({ sandbox, tarball, check, assert }) {
	console.log('\nA delivery whose answer n8n never gives (an n8n of its own)');
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-clock-'));
	const clockFile = path.join(folder, 'offset');
	fs.writeFileSync(clockFile, '0');
	const hold = await holdServer();
	let n8n;
	try {
		n8n = await startN8n({
			tarball,
			env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1', NODE_OPTIONS: `--require ${JSON.stringify(CLOCK)}`, STORA_E2E_CLOCK_FILE: clockFile },
		});
		await hungDelivery({ n8n, sandbox, hold, clockFile, check, assert });
	} finally {
		hold.release();
		await n8n?.stop();
		await hold.close();
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

async function hungDelivery({ n8n, sandbox, hold, clockFile, check, assert }) {
	/** Moves n8n's Date.now() to `seconds` past real time, once n8n says it has. */
	const clockAt = async (seconds) => {
		fs.writeFileSync(clockFile, String(seconds));
		fs.rmSync(`${clockFile}.ack`, { force: true });
		process.kill(n8n.pid, 'SIGUSR2');
		const moved = () => fs.existsSync(`${clockFile}.ack`) && fs.readFileSync(`${clockFile}.ack`, 'utf8') === String(seconds);
		await until(moved, `n8n's clock to move ${seconds} s`, { timeoutMs: 10_000, every: 50 });
	};
	const beforeStoring = VERSION.api.answersBeforeStoring === true;
	const title = beforeStoring
		? `with n8n's one execution slot held (N8N_CONCURRENCY_PRODUCTION_LIMIT=1), n8n ${VERSION.n8n} answers the first attempt of an event 200 before it runs; a retry is answered duplicate, also ${BOUND + 5} s on; one execution once the slot frees`
		: `with n8n's one execution slot held (N8N_CONCURRENCY_PRODUCTION_LIMIT=1), the first attempt of an event gets no answer; a retry is answered 503 pending at once and ${BOUND - 5} s on, and starts the event ${BOUND + 5} s on; once the slot frees both run (at least once) and a replay is a duplicate`;

	await check(title, async () => {
		const credential = await n8n.createCredential('Stora sandbox (hung delivery)', 'storaApi', { baseUrl: sandbox.url, accessToken: sandbox.token });
		const holdPath = `hold-${randomUUID().slice(0, 8)}`;
		const holder = await n8n.createWorkflow(
			chain('Hold the execution slot', [
				webhookNode(holdPath, { responseMode: 'onReceived' }),
				node('Hold', 'n8n-nodes-base.httpRequest', 4.2, { url: hold.url, options: { timeout: 300_000 } }),
			]),
		);
		await n8n.activate(await n8n.request('GET', `/rest/workflows/${holder.id}`));
		const workflow = await triggerWorkflow(n8n, credential, ['contact.created'], 'Stora Trigger hung delivery');
		await publish(n8n, workflow);
		try {
			const [endpoint] = (await endpointsOf(sandbox, workflow)).production;
			const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
			assert(endpoint?.url && secret, 'publishing registered no endpoint with a secret');
			const [contact] = await sandbox.control.state('contacts');
			const body = contactCreatedBody(contact.id, 'evt_hung_');
			const eventId = JSON.parse(body).id;
			const executions = () => n8n.allExecutions(workflow.id);
			const answers = [];
			const deliver = async (label) => {
				const answer = await post(endpoint.url, secret, body);
				answers.push(`${label}: ${answer.status} ${JSON.stringify(answer.body)}`);
				return answer;
			};
			const same = (answer, expected) => JSON.stringify(answer) === JSON.stringify(expected);
			const pending = { status: 503, body: { received: false, pending: true, event_id: eventId } };
			const duplicate = { status: 200, body: { received: true, duplicate: true, event_id: eventId } };

			const holding = await fetch(`${n8n.base}/webhook/${holdPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			assert(holding.status === 200, `the slot holder's webhook was answered ${holding.status}`);
			await until(() => hold.held() === 1, 'the slot holder to wait on its HTTP request', { timeoutMs: 30_000, every: 50 });

			let firstAnswer;
			const first = deliver('first attempt').then((answer) => (firstAnswer = answer));
			if (beforeStoring) {
				await first;
				assert(firstAnswer.status === 200, `the first attempt was answered ${answers.at(-1)}, expected 200 before the execution runs`);
				assert(same(await deliver('retry at once'), duplicate), `a retry: ${answers.at(-1)}`);
				await clockAt(BOUND + 5);
				assert(same(await deliver(`retry ${BOUND + 5} s on`), duplicate), `a retry past the bound: ${answers.at(-1)}`);
				hold.release();
			} else {
				// Its execution is stored (status new) before it waits for the slot, and after the trigger made its claim.
				await until(async () => (await executions()).length === 1 || firstAnswer, 'the first attempt to reach n8n', { timeoutMs: 30_000, every: 100 });
				assert(firstAnswer === undefined, `the first attempt was answered (${answers.at(-1)}) while its execution waits for the slot`);
				assert(same(await deliver('retry at once'), pending), `a retry while the first attempt waits: ${answers.at(-1)}`);
				await clockAt(BOUND - 5);
				assert(same(await deliver(`retry ${BOUND - 5} s on`), pending), `a retry just inside the bound: ${answers.at(-1)}`);
				await clockAt(BOUND + 5);
				let retryAnswer;
				const started = deliver(`retry ${BOUND + 5} s on`).then((answer) => (retryAnswer = answer));
				await until(async () => (await executions()).length === 2 || retryAnswer, 'the retry past the bound to start the event', { timeoutMs: 30_000, every: 100 });
				assert(retryAnswer === undefined, `the retry past the bound was answered (${answers.at(-1)}), expected a second execution waiting for the slot`);
				assert(same(await deliver('retry after it'), pending), `a retry while the new claim waits: ${answers.at(-1)}`);
				assert(firstAnswer === undefined, `the first attempt was answered (${answers.at(-1)}) before the slot freed`);
				hold.release();
				const [late, taken] = await Promise.all([first, started]);
				assert(late.status === 200 && taken.status === 200, `once the slot freed: ${answers.slice(-2).join('; ')}`);
			}
			const expected = beforeStoring ? 1 : 2;
			const succeeded = async () => (await executions()).filter((e) => e.status === 'success').length >= expected;
			await until(succeeded, `${expected} executions of the event to finish`, { timeoutMs: 60_000 });
			assert(same(await deliver('replay'), duplicate), `a replay once it ran: ${answers.at(-1)}`);
			const all = await executions();
			assert(all.length === expected, `${all.length} executions of the event (${all.map((e) => e.status).join(', ')}), expected ${expected}`);
			for (const execution of all) {
				const full = await n8n.execution(execution.id);
				const event = full.data?.resultData?.runData?.['Stora Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
				assert(event?.id === eventId, `execution ${execution.id} holds ${JSON.stringify(event).slice(0, 200)}`);
			}
			log(`hung delivery, n8n ${VERSION.n8n}: ${answers.join('; ')}; ${all.length} execution${all.length > 1 ? 's' : ''} of the event`);
		} finally {
			// Stora (the sandbox) delivers later checks' events here no more.
			await n8n.deactivate(workflow);
		}
	});
}
