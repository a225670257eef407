// Many n8n processes, one Stora account: workers writing Contact → Create to one account at once, each with the budget
// of its own process, against a sandbox of their own that enforces the account's limits and sends only the documented
// rate-limit headers (RateLimit-Limit, RateLimit-Reset). The queue check (checks/sharedAccount.mjs) and the bench's
// case 7 run these scenarios and read the same figures.
//
// A scenario feeds a fixed number of creates, 10 items per execution (Webhook → Split Out → Contact → Create: n8n's own
// work per execution would otherwise set the pace), enough executions at once to keep every worker busy.
// Then everything the sandbox saw is checked: every execution succeeded (no 429 reached a workflow), each contact
// created once (no duplicate, none lost), every POST carried an Idempotency-Key and no key was answered twice; and the
// figures: the least time the account's windows allow for the creates against the time they took (of the limit), and
// the requests answered 429 per 100 on the wire.
import { randomId } from '../realN8n/basics.mjs';
import { assert } from '../realN8n/harness.mjs';
import { startSandbox } from '../realN8n/sandbox.mjs';
import { collectSecrets } from '../realN8n/secrets.mjs';
import { sleep, until } from '../realN8n/wait.mjs';
import { chain, node, STORA_POLL_TRIGGER, storaNode, webhookNode } from '../realN8n/workflow.mjs';
import {
	ANSWER_ALL,
	countBy,
	describeCounts,
	executionRows,
	failedExecutionErrors,
	finishedRows,
	workersOf,
} from './helpers.mjs';

const DOCUMENTED = { perSecond: 10, perMinute: 60 };
const PLAN = { perSecond: 10, perMinute: 600 };
const PLAN_SET = { rateLimit: 'custom', requestsPerSecond: 10, requestsPerMinute: 600 };

/**
 * The scenarios, by name: the account's limits, the credential's Rate Limit (the default unless `rateLimit`), the
 * workers, the creates, and whether the Polling Trigger polls the same account from main meanwhile (`poll`). The documented ones are a short burst that meets the minute window; the plan ones a run
 * of the per-second window (`long`: the creates of the longer form, `npm run test:queue -- --shared-long`).
 */
export const SCENARIOS = {
	'documented-2': { limit: DOCUMENTED, workers: 2, creates: 90, poll: true },
	'documented-4': { limit: DOCUMENTED, workers: 4, creates: 92 },
	'plan-2': { limit: PLAN, rateLimit: PLAN_SET, workers: 2, creates: 200, long: 1800 },
	'plan-4': { limit: PLAN, rateLimit: PLAN_SET, workers: 4, creates: 200, long: 1800 },
};

/** The goals every scenario is held to. */
export const GOALS = { ofTheLimit: 0.9, limitedPer100: 100 / 3 };

export const describeScenario = (s, long = false) =>
	`${s.workers} workers, ${long && s.long ? s.long : s.creates} Contact → Create (10 items an execution) at once on one account of ${s.limit.perSecond}/s and ${s.limit.perMinute}/min (credential: ${s.rateLimit ? 'that plan' : 'default Rate Limit'})${s.poll ? ', the Polling Trigger on main polling it every minute' : ''}`;

/**
 * Runs scenario `name` (`long`: its longer form): starts the workers it needs beyond those running, opens its
 * account and returns its figures.
 */
export async function runScenario(ctx, name, { long = false } = {}) {
	const scenario = SCENARIOS[name];
	const running = ctx.cluster.workers.filter((w) => !w.exited);
	assert(
		running.length <= scenario.workers,
		`${running.length} workers running, the scenario wants ${scenario.workers}`,
	);
	const adding = Array.from(
		{ length: scenario.workers - running.length },
		(_, i) => `worker-${running.length + i + 1}`,
	);
	await Promise.all(adding.map((worker) => ctx.cluster.addWorker(worker)));
	const account = await openAccount(ctx, name, scenario.limit, scenario.rateLimit);
	try {
		const poll = scenario.poll ? await publishPoll(ctx, account) : undefined;
		const figures = await sharedWrites(ctx, account, {
			creates: long && scenario.long ? scenario.long : scenario.creates,
			label: name,
		});
		if (poll) figures.poll = await checkPoll(ctx, account, poll);
		return figures;
	} finally {
		await account.close();
	}
}

/** A Stora Polling Trigger on main (new contacts, every minute) on the scenario's account and credential. */
async function publishPoll(ctx, account) {
	const workflow = await ctx.main.createWorkflow(
		chain('queue: shared account, Polling Trigger', [
			storaNode(
				'New contact',
				{
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					pollResource: 'contact',
					event: 'created',
					filters: {},
				},
				account.credential,
				{ type: STORA_POLL_TRIGGER },
			),
		]),
	);
	ctx.workflows.push(workflow);
	await ctx.main.activate(workflow);
	return workflow;
}

/**
 * The Polling Trigger beside the workers: at least one poll answered (a poll answered 429 waits for the reset like any
 * request), and every execution it started succeeded.
 */
async function checkPoll(ctx, account, workflow) {
	const polls = async () =>
		(await account.sandbox.control.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/2025-09/contacts',
		);
	await until(
		async () => (await polls()).some((r) => r.status === 200),
		'a poll of the Polling Trigger answered 200',
		{ timeoutMs: 150_000 },
	);
	await ctx.main.deactivate(workflow);
	const rows = executionRows(ctx, workflow.id);
	assert(
		rows.every((r) => r.status === 'success'),
		`Polling Trigger executions: ${describeCounts(countBy(rows.map((r) => r.status)))}`,
	);
	const gets = await polls();
	return `the Polling Trigger on main polled ${gets.length} times (${gets.filter((r) => r.status === 429).length} answered 429, waited) and started ${rows.length} executions, all successful`;
}

/** Creates per execution, and executions kept running per worker: each budget always has a queue. */
const ITEMS = 10;
const PER_WORKER = 3;

/**
 * An account of its own for a scenario: a sandbox in this process at `limit` ({ perSecond, perMinute }), documented
 * headers only, and a Stora credential for it in n8n (Rate Limit as `rateLimit` says, else the default).
 */
async function openAccount(ctx, label, limit, rateLimit = {}) {
	const sandbox = await startSandbox({ seed: 'demo', rateLimit: limit, headers: 'documented' });
	let closed = false;
	const closeOnce = async () => {
		if (!closed) await sandbox.close();
		closed = true;
	};
	ctx.cleanups.push(closeOnce);
	const credential = await ctx.main.createCredential(`Stora sandbox (${label})`, 'storaApi', {
		baseUrl: sandbox.url,
		accessToken: sandbox.token,
		...rateLimit,
	});
	// Its token must not show in any n8n log either (checks/atTheEnd.mjs).
	const close = async () => {
		collectSecrets(sandbox, ctx.secrets);
		await closeOnce();
	};
	return { sandbox, credential, limit, label, close };
}

/**
 * Starts the account's minute windows on the next whole second and waits for it: the scenario starts on a fresh
 * minute without waiting for the clock's next one (the docs do not say where Stora's windows start).
 */
async function startMinutes(sandbox) {
	const start = Math.ceil((Date.now() + 500) / 1000) * 1000;
	sandbox.core.limiter.startMinutesAt(start);
	await sleep(start - Date.now());
	return start;
}

/** The least ms from the start of the account's windows to the last of `count` requests that the limits allow. */
export function floorMs(count, { perSecond, perMinute }) {
	const minutes = Math.floor((count - 1) / perMinute);
	const inLast = count - minutes * perMinute;
	return minutes * 60_000 + Math.floor((inLast - 1) / perSecond) * 1000;
}

async function sharedWrites(ctx, account, { creates, label }) {
	const { main, cluster, log } = ctx;
	const { sandbox, credential, limit } = account;
	const run = randomId();
	const path = `queue-shared-${run}`;
	const workflow = await main.createWorkflow(
		chain(`queue: shared account ${label}`, [
			webhookNode(path, ANSWER_ALL),
			node('Split Out', 'n8n-nodes-base.splitOut', 1, {
				fieldToSplitOut: 'body.tags',
				options: {},
			}),
			storaNode(
				'Create',
				{
					resource: 'contact',
					operation: 'create',
					email: '={{ $json.tag }}@example.com',
					additionalFields: { fullName: '={{ $json.tag }}' },
				},
				credential,
			),
		]),
	);
	ctx.workflows.push(workflow);
	await main.activate(workflow);
	await sandbox.control.clearRequests();

	const workers = cluster.workers.filter((w) => !w.exited).length;
	const start = await startMinutes(sandbox);
	log(`${label}: ${creates} creates from ${new Date(start).toISOString()}`);
	const calls = [];
	let fed = 0;
	const feeder = async () => {
		while (fed < creates) {
			const tags = Array.from({ length: Math.min(ITEMS, creates - fed) }, () => `q${run}-${fed++}`);
			const answer = await cluster.webhook
				.callWebhook(path, { body: { tags: tags.map((tag) => ({ tag })) }, timeoutMs: 600_000 })
				.catch((error) => ({ status: 0, text: error.message }));
			calls.push({ tags, answer });
		}
	};
	await Promise.all(Array.from({ length: PER_WORKER * workers }, feeder));
	log(`${label}: ${calls.length} executions done in ${((Date.now() - start) / 1000).toFixed(1)} s`);
	await main.deactivate(workflow);
	return await checkWrites(ctx, account, { workflow, calls, run, start, limit });
}

async function checkWrites(ctx, account, { workflow, calls, run, start, limit }) {
	const { sandbox } = account;
	for (const { tags, answer } of calls) {
		const body = answer.body;
		const answered =
			answer.status === 200 &&
			Array.isArray(body) &&
			body.length === tags.length &&
			body.every((c, i) => c.email === `${tags[i]}@example.com`);
		if (!answered) {
			const errors = await failedExecutionErrors(ctx, workflow.id).catch(
				(error) => `(errors not read: ${error.message})`,
			);
			assert(
				false,
				`execution for ${tags[0]}…: HTTP ${answer.status} ${String(answer.text).slice(0, 300)}\n${errors}`,
			);
		}
	}
	const creates = calls.reduce((sum, call) => sum + call.tags.length, 0);
	const rows = await finishedRows(ctx, workflow.id, calls.length, { timeoutMs: 600_000 });
	assert(
		rows.length === calls.length && rows.every((r) => r.status === 'success'),
		`executions: ${describeCounts(countBy(rows.map((r) => r.status)))} of ${calls.length} calls`,
	);
	const byWorker = countBy(
		workersOf(
			ctx,
			rows.map((r) => r.id),
		),
	);

	// Each contact created once, by the tag in its e-mail.
	const contacts = (await sandbox.control.state('contacts')).filter((c) =>
		c.email.startsWith(`q${run}-`),
	);
	const perTag = countBy(contacts.map((c) => c.email.split('@')[0]));
	assert(
		contacts.length === creates && perTag.size === creates,
		`${contacts.length} contacts for ${creates} creates (${perTag.size} tags)`,
	);

	const requests = (await sandbox.control.requests()).filter((r) => r.path.startsWith('/2025-09/'));
	const posts = requests.filter((r) => r.method === 'POST');
	assert(
		posts.every((r) => r.headers['idempotency-key']),
		`${posts.filter((r) => !r.headers['idempotency-key']).length} POSTs without an Idempotency-Key`,
	);
	const answeredPerKey = countBy(
		posts.filter((r) => r.status !== 429).map((r) => r.headers['idempotency-key']),
	);
	assert(
		[...answeredPerKey.values()].every((n) => n === 1),
		`an Idempotency-Key answered more than once`,
	);
	assert(
		posts.filter((r) => r.status === 201).length === creates,
		`${posts.filter((r) => r.status === 201).length} creates answered 201 for ${creates}`,
	);

	const limited = requests.filter((r) => r.status === 429).length;
	const last = Math.max(...posts.filter((r) => r.status !== 429).map((r) => Date.parse(r.at)));
	return {
		ofTheLimit: floorMs(creates, limit) / (last - start),
		seconds: (last - start) / 1000,
		limitedPer100: (100 * limited) / requests.length,
		requests: requests.length,
		limited,
		creates,
		executions: calls.length,
		byWorker: describeCounts(byWorker),
	};
}

/** One line for the figures: what the scenario measured. */
export const describeShared = (label, f) =>
	`${label}: ${f.creates} creates in ${f.executions} executions (per worker: ${f.byWorker}) in ${f.seconds.toFixed(1)} s, ${f.ofTheLimit.toFixed(2)} of the account's limit; ${f.requests} requests, ${f.limited} answered 429 (${f.limitedPer100.toFixed(1)} per 100), none reached a workflow; none duplicated, none lost${f.poll ? `; ${f.poll}` : ''}`;
