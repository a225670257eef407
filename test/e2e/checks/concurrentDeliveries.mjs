// "Many deliveries of one event at once" (issue 53): what Stora's retry after a timeout, arriving while a slow first
// attempt is still being handled, looks like to a published Stora Trigger in real n8n. 100 signed deliveries of one
// event posted at the same instant start exactly one execution, the others answered 503 `pending` (the first is still
// being stored) or 200 `duplicate` (it was); a replay afterwards is a duplicate; after a first attempt n8n could not
// store (test/realN8n/faults.mjs), exactly one of 100 simultaneous retries starts it.
// A delivery whose answer n8n never gives, and the bound on a claim waiting for it (PENDING_CLAIM_SECONDS): hungDelivery.mjs.
import { sqliteRefusal } from '../../realN8n/faults.mjs';
import { log, VERSION } from '../../realN8n/n8n.mjs';
import { contactCreatedBody, nowSeconds, signature } from '../../realN8n/sign.mjs';
import { endpointsOf, publish, triggerWorkflow } from '../../realN8n/triggerRoutes.mjs';
import { until } from '../../realN8n/wait.mjs';

const AT_ONCE = 100;

/** Posts one signed delivery; its status and JSON body. */
async function post(url, body, header) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-stora-signature': header },
		body,
		signal: AbortSignal.timeout(60_000),
	});
	const text = await res.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: res.status, body: json };
}

/**
 * What an answer says: `started` (n8n took it), `pending`, `duplicate`, `unavailable` (n8n 1.123 refuses every
 * request while a ping of its database has timed out, on a loaded machine: the trigger never saw it, and Stora
 * retries it), or `other`.
 */
function kindOf({ status, body }) {
	if (status === 503 && body?.pending === true) return 'pending';
	if (status === 503 && body?.message === 'Database is not ready!') return 'unavailable';
	if (status === 200 && body?.duplicate === true) return 'duplicate';
	if (status === 200 && body?.pending === undefined && body?.received === undefined) return 'started';
	return 'other';
}

/** One delivery, posted again (as Stora retries) while n8n itself refuses it as `unavailable`; its kind. */
async function deliverOnce(url, secret, body) {
	return await until(async () => {
		const kind = kindOf(await post(url, body, signature(secret, body)));
		return kind !== 'unavailable' && kind;
	}, 'n8n to take a delivery (it answered 503: database not ready)', { timeoutMs: 30_000, every: 500 });
}

/**
 * `count` deliveries of one body, all posted before any answer is read (the connections opened at once); every
 * second one signed anew a second earlier, as a retry with a fresh `t` may be. The answers counted by kind.
 */
async function atOnce(url, secret, body, count = AT_ONCE) {
	const t = nowSeconds();
	const answers = await Promise.all(
		Array.from({ length: count }, (_, i) => post(url, body, signature(secret, body, i % 2 ? t - 1 : t))),
	);
	const kinds = { started: 0, pending: 0, duplicate: 0, unavailable: 0, other: 0 };
	const others = [];
	for (const answer of answers) {
		const kind = kindOf(answer);
		kinds[kind]++;
		if (kind === 'other') others.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
	}
	return { ...kinds, others };
}

/**
 * The executions of a workflow once every answer is in. n8n 2.x stores an execution before it answers the delivery,
 * so the count is final when the last answer has come. n8n 1.x answers first: the executions are awaited until
 * `expected` are there and finished, after which a marker event's execution (sent last, handled after them) shows
 * any late one.
 */
async function executionsAfterAnswers(n8n, workflow, expected, marker) {
	const finished = async () => (await n8n.allExecutions(workflow.id)).filter((e) => !['new', 'running', 'waiting'].includes(e.status));
	if (VERSION.api.answersBeforeStoring) {
		await marker();
		await until(async () => (await finished()).length >= expected + 1, `${expected + 1} executions (with the marker) to finish`, { timeoutMs: 60_000 });
		return (await finished()).length - 1;
	}
	await until(async () => (await finished()).length >= (await n8n.allExecutions(workflow.id)).length, 'the executions to finish', { timeoutMs: 60_000 });
	return (await n8n.allExecutions(workflow.id)).length;
}

/** What the workflow's first execution (not a later marker's) started with: the event. */
async function eventOf(n8n, workflow) {
	const execution = (await n8n.allExecutions(workflow.id)).at(-1);
	const full = await n8n.execution(execution.id);
	return full.data?.resultData?.runData?.['Stora Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
}

export async function concurrentDeliveryChecks({ n8n, sandbox, credentials, check, assert }) {
	console.log('\nMany deliveries of one event at once');
	await sandbox.control.reset('demo');
	const [contact] = await sandbox.control.state('contacts');

	/** A published trigger workflow of its own, its endpoint's URL and secret; unpublished after `body`. */
	const withTrigger = async (name, body) => {
		const workflow = await triggerWorkflow(n8n, credentials.accessToken, ['contact.created'], name);
		await publish(n8n, workflow);
		let failed = false;
		try {
			const [endpoint] = (await endpointsOf(sandbox, workflow)).production;
			// The sandbox runs in this process: the secret it signs with (the API returns it only on create).
			const secret = sandbox.core.webhookSecrets.get(endpoint?.id);
			assert(endpoint?.url && secret, 'publishing registered no endpoint with a secret');
			const marker = async () => {
				const kind = await deliverOnce(endpoint.url, secret, contactCreatedBody(contact.id, 'evt_marker'));
				assert(kind === 'started', `the marker delivery was answered ${kind}`);
			};
			return await body({ workflow, url: endpoint.url, secret, marker });
		} catch (error) {
			failed = true;
			throw error;
		} finally {
			// After a failure, the failure is what the check reports, not a refused unpublish.
			await n8n.deactivate(workflow).catch((error) => {
				if (!failed) throw error;
			});
		}
	};

	await check(`${AT_ONCE} signed deliveries of one event posted at the same instant start exactly one execution (the others answered 503 pending or 200 duplicate); a replay afterwards is answered duplicate and starts nothing`, async () => {
		await withTrigger('Stora Trigger at once', async ({ workflow, url, secret, marker }) => {
			const body = contactCreatedBody(contact.id, 'evt_at_once_');
			const answers = await atOnce(url, secret, body);
			log(`${AT_ONCE} at once: ${answers.started} started, ${answers.pending} pending (503), ${answers.duplicate} duplicate${answers.unavailable ? `, ${answers.unavailable} refused by n8n (database not ready)` : ''}`);
			assert(answers.other === 0, `${answers.other} answers were none of started, pending, duplicate: ${answers.others.slice(0, 5).join('; ')}`);
			assert(answers.started === 1, `${answers.started} deliveries started the event, expected exactly 1`);
			const replay = await deliverOnce(url, secret, body);
			assert(replay === 'duplicate', `the replay after the first was answered ${replay}`);
			const executions = await executionsAfterAnswers(n8n, workflow, 1, marker);
			assert(executions === 1, `${executions} executions for one event, expected 1`);
			const event = await eventOf(n8n, workflow);
			assert(event?.id === JSON.parse(body).id, `the execution holds ${JSON.stringify(event).slice(0, 200)}`);
		});
	});

	// n8n 1.x answers before it stores: a first attempt it cannot store is answered 200 and lost to n8n (the README
	// says so; test/realN8n/atLeastOnce.mjs checks it), so there is no failed first answer to retry.
	if (!VERSION.api.answersBeforeStoring) {
		await check(`after a first attempt n8n could not store (answered 500), exactly one of ${AT_ONCE} retries posted at the same instant starts the event; a replay afterwards is answered duplicate`, async () => {
			await withTrigger('Stora Trigger retries at once', async ({ workflow, url, secret, marker }) => {
				const body = contactCreatedBody(contact.id, 'evt_retries_');
				const refusal = sqliteRefusal(n8n.userFolder);
				refusal.on();
				let first;
				try {
					first = await post(url, body, signature(secret, body));
				} finally {
					refusal.off();
				}
				assert(first.status === 500, `the first attempt was answered ${first.status}, expected 500 (n8n could not store the execution)`);
				const answers = await atOnce(url, secret, body);
				log(`first attempt ${first.status}; ${AT_ONCE} retries at once: ${answers.started} started, ${answers.pending} pending (503), ${answers.duplicate} duplicate${answers.unavailable ? `, ${answers.unavailable} refused by n8n (database not ready)` : ''}`);
				assert(answers.other === 0, `${answers.other} answers were none of started, pending, duplicate: ${answers.others.slice(0, 5).join('; ')}`);
				assert(answers.started === 1, `${answers.started} retries started the event, expected exactly 1`);
				const replay = await deliverOnce(url, secret, body);
				assert(replay === 'duplicate', `the replay after the retries was answered ${replay}`);
				const executions = await executionsAfterAnswers(n8n, workflow, 1, marker);
				assert(executions === 1, `${executions} executions for one event, expected 1`);
				const event = await eventOf(n8n, workflow);
				assert(event?.id === JSON.parse(body).id, `the execution holds ${JSON.stringify(event).slice(0, 200)}`);
			});
		});
	}
}
