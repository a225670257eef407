// What every case of `npm run bench` shares: progress lines, stopping what was started, the result rows with their
// medians, the rate limit's floor, and running a workflow in n8n and reading back what it did.
import { sleep } from '../realN8n/n8n.mjs';
import { groupCpuMs } from './proc.mjs';

// ------------------------------------------------------------------------------------------------ output

export const t0 = Date.now();
export const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const minutes = (ms) => `${(ms / 60_000).toFixed(1)} min`;
let lastLine = Date.now();
let activity = { label: 'starting', since: Date.now() };

export function say(...parts) {
	console.log('[bench]', ...parts);
	lastLine = Date.now();
}

/** Names what is going on now; the heartbeat repeats it (with the time it has taken) when nothing was printed for 10 s. */
export function doing(label) {
	activity = { label, since: Date.now() };
	say(`${label} (bench at ${sec(Date.now() - t0)})`);
}

const heartbeat = setInterval(() => {
	if (Date.now() - lastLine >= 10_000)
		say(
			`${activity.label}: ${sec(Date.now() - activity.since)} so far (bench at ${sec(Date.now() - t0)})`,
		);
}, 1000);
export const stopHeartbeat = () => clearInterval(heartbeat);

// ------------------------------------------------------------------------------------------------ cleanup

export const cleanups = [];
let cleaning;
/** Set on Ctrl-C or SIGTERM: from then on nothing new is started, and what a case starts is stopped at once. */
export const stopping = { now: false };

/** Runs every registered release (latest first). One pass at a time; a later call runs what was registered since. */
export async function cleanup() {
	cleaning ??= (async () => {
		for (const fn of cleanups.splice(0).reverse()) {
			try {
				await fn();
			} catch (error) {
				console.error('[bench] cleanup failed:', error.message);
			}
		}
	})().finally(() => {
		cleaning = undefined;
	});
	return await cleaning;
}

/** Runs `fn(resource)` and always releases the resource (stop by PID) afterwards, also when fn throws. */
export async function using(resource, stop, fn) {
	if (stopping.now) {
		await stop(resource);
		throw new Error('the bench is stopping');
	}
	const release = async () => {
		const i = cleanups.indexOf(release);
		if (i >= 0) cleanups.splice(i, 1);
		await stop(resource);
	};
	cleanups.push(release);
	try {
		return await fn(resource);
	} finally {
		await release();
	}
}

// ------------------------------------------------------------------------------------------------ figures

export const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median, min and max of the repetitions that produced a value; `failed` counts those that did not. */
export function summary(values) {
	const ok = values.filter((v) => Number.isFinite(v));
	return {
		median: ok.length ? median(ok) : NaN,
		min: ok.length ? Math.min(...ok) : NaN,
		max: ok.length ? Math.max(...ok) : NaN,
		values,
		failed: values.length - ok.length,
	};
}

export const fmtRatio = (r) =>
	r === undefined || !Number.isFinite(r) ? 'n/a' : Math.abs(r) >= 10 ? r.toFixed(1) : r.toFixed(3);

/** Median, and the range of the repetitions when there are several: `1.017 (1.012–1.020)`. */
export function fmtSummary(s, fmt = fmtRatio) {
	if (typeof s === 'number') return fmt(s);
	if (!s || !Number.isFinite(s.median)) return 'n/a';
	const range = s.values.length > 1 ? ` (${fmt(s.min)}–${fmt(s.max)})` : '';
	return `${fmt(s.median)}${range}${s.failed ? `, ${s.failed} failed` : ''}`;
}

/** Seconds of each repetition, in the order they ran. */
export const runsText = (values) =>
	values.map((v) => (Number.isFinite(v) ? sec(v) : 'failed')).join(', ');

// ------------------------------------------------------------------------------------------------ rows

/**
 * The table. A row's `ratio` is a summary of its repetitions (median, min, max) or one number; `goal`:
 * { op: '<=' | '>=' | '<' | '==', value }, or none for a figure shown for information. A goal is met when every
 * repetition produced a value and every one of them meets it (the whole range, not only the median).
 */
export const rows = [];

export function compare(value, { op, value: target }) {
	if (op === '<=') return value <= target;
	if (op === '<') return value < target;
	if (op === '>=') return value >= target;
	return value === target;
}

export function row(id, what, { stora, other, ratio, goal, note }) {
	const s = typeof ratio === 'number' ? summary([ratio]) : ratio;
	const met =
		goal === undefined
			? undefined
			: Number.isFinite(s?.median) && !s.failed && s.values.every((value) => compare(value, goal));
	const entry = { id, what, stora, other, ratio: s, goal, met, note };
	rows.push(entry);
	say(
		`${id} ${what}: ${stora ?? ''}${other ? ` | ${other}` : ''} → ${fmtSummary(s)}${goal ? ` (goal ${goal.op} ${goal.value}: ${met ? 'met' : 'NOT met'})` : ''}`,
	);
	return entry;
}

/** A case that could not be measured: its goals count as not met. */
export function failedRow(id, what, goal, error) {
	const message = error.message.split('\n')[0];
	rows.push({
		id,
		what,
		stora: 'failed',
		other: '',
		ratio: summary([NaN]),
		goal,
		met: goal ? false : undefined,
		note: message.slice(0, 300),
	});
	say(`${id} ${what}: FAILED: ${message}`);
}

// ------------------------------------------------------------------------------------------------ repetitions

/**
 * The order of `reps` repetitions of a case's two sides, alternating which goes first (S R, R S, S R, ...), so a
 * drift in the shared machine's load hits both sides alike.
 */
export const alternated = (reps) =>
	Array.from({ length: reps }, (_, k) => (k % 2 === 0 ? ['S', 'R'] : ['R', 'S']));
/** A repetition's name in the progress lines: index `reps` (one past the measured ones) is the unmeasured warm-up. */
export const runName = (k, reps) => (k === reps ? 'warm-up run' : `run ${k + 1}`);

// ------------------------------------------------------------------------------------------------ floors

/**
 * The earliest time (ms) the last of `count` requests can be answered when no window of the documented kind ever
 * holds more than its limit (any 1 s: perSecond, any 60 s: perMinute) and each request takes `latency`; a sequential
 * pager also waits for each answer before the next request. `heldUntilAnswer`: a request keeps its place in a window
 * from its sending until its answer, then for the window's length (what the node's budget does, because Stora does
 * not document where in the round trip it counts a request), so each window costs one round trip more.
 */
export function floorMs(
	count,
	{ perSecond, perMinute },
	latency,
	{ sequential, heldUntilAnswer = false },
) {
	const t = [];
	const held = heldUntilAnswer ? latency : 0;
	for (let k = 0; k < count; k++) {
		let at = 0;
		if (sequential && k > 0) at = t[k - 1] + latency;
		if (k >= perSecond) at = Math.max(at, t[k - perSecond] + held + 1000);
		if (k >= perMinute) at = Math.max(at, t[k - perMinute] + held + 60_000);
		t.push(at);
	}
	return t[count - 1] + latency;
}

/**
 * Waits until just after the next minute boundary of the clock, where the sandbox's fixed windows start (unless the
 * current minute has only just begun).
 */
export async function untilMinuteStarts(label, offsetMs = 150) {
	const into = Date.now() % 60_000;
	if (into < 1500) return;
	const wait = 60_000 - into + offsetMs;
	doing(`${label}: waiting ${sec(wait)} for the next minute of the rate-limit windows`);
	await sleep(wait);
}

// ------------------------------------------------------------------------------------------------ running workflows

/** Creates and publishes a workflow. */
export async function publish(n8n, workflow) {
	const created = await n8n.createWorkflow(workflow);
	await n8n.activate(created);
	return created;
}

/** The webhook path of a workflow built by workflows.mjs. */
const pathOf = (workflow) =>
	workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook').parameters.path;

/**
 * What the bench needs of a finished execution (status, error, per-node start, duration and item count), read without
 * rebuilding all of it: n8n sends run data in `flatted` form, a JSON array in which every object, array and string
 * sits in its own slot and is referenced by its index as a string. Parsing the array and following only the few
 * references needed takes a fraction of a second where rebuilding 10,000 items takes many.
 */
async function executionSummary(n8n, id) {
	const res = await fetch(`${n8n.base}/rest/executions/${id}`, { headers: { cookie: n8n.cookie } });
	if (!res.ok) throw new Error(`n8n GET /rest/executions/${id} → ${res.status}`);
	const { data } = await res.json();
	const slots = typeof data.data === 'string' ? JSON.parse(data.data) : undefined;
	const ref = (value) => (slots && typeof value === 'string' ? slots[Number(value)] : value);
	/** An object with its references followed `depth` levels deep (for error objects). */
	const expand = (value, depth) => {
		const v = ref(value);
		if (depth <= 0 || v === null || typeof v !== 'object') return v;
		if (Array.isArray(v)) return v.map((x) => expand(x, depth - 1));
		return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, depth - 1)]));
	};
	const root = slots ? slots[0] : data.data;
	const resultData = ref(root?.resultData) ?? {};
	const runData = ref(resultData.runData) ?? {};
	const node = (name) => {
		const run = ref(ref(runData[name])?.[0]);
		if (!run) return undefined;
		const main = ref(ref(run.data)?.main);
		return {
			startTime: run.startTime,
			executionTime: run.executionTime,
			items: ref(main?.[0])?.length ?? 0,
			error: run.error === undefined ? undefined : expand(run.error, 3),
		};
	};
	return {
		status: data.status,
		error: resultData.error === undefined ? undefined : expand(resultData.error, 3),
		node,
	};
}

/**
 * Calls a published workflow's webhook and waits for its execution to be saved as finished. Measures n8n's CPU (the
 * process group: n8n and its task runner) from just before the call until then, and calls `onFinished` at that moment
 * (peak memory) before the execution is read back. Returns timings from n8n's own run data: `ms` from the start of
 * `first` to the end of `last`; `ok` when the run succeeded with `items` items (else `failure` says why).
 */
export async function runOnce(n8n, workflow, { body = {}, first, last, items, onFinished } = {}) {
	const cpuBefore = groupCpuMs(n8n.pid);
	const started = Date.now();
	const res = await fetch(`${n8n.base}/webhook/${pathOf(workflow)}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(400_000),
	});
	const answer = await res.text();
	// A webhook that started nothing (a deactivated workflow answers 404) would leave an earlier execution to be measured.
	if (!res.ok)
		throw new Error(
			`the webhook of "${workflow.name}" answered ${res.status}: ${answer.slice(0, 300)}`,
		);
	let latest;
	const deadline = Date.now() + 120_000;
	for (;;) {
		[latest] = await n8n.executions(workflow.id, { limit: 1 });
		if (latest && !['running', 'new', 'waiting'].includes(latest.status)) break;
		if (Date.now() > deadline)
			throw new Error(
				`no finished execution of "${workflow.name}" (webhook answered ${res.status}: ${answer.slice(0, 300)})`,
			);
		await sleep(100);
	}
	const wallMs = Date.now() - started;
	const cpuMs = groupCpuMs(n8n.pid) - cpuBefore;
	const extra = onFinished ? onFinished() : undefined;
	const execution = await executionSummary(n8n, latest.id);
	const firstRun = execution.node(first);
	const lastRun = execution.node(last);
	const error = execution.error ?? lastRun?.error ?? firstRun?.error;
	const ms =
		firstRun && lastRun ? lastRun.startTime + lastRun.executionTime - firstRun.startTime : NaN;
	await n8n.deactivate(workflow).catch(() => {});
	const run = {
		status: execution.status,
		error,
		items: lastRun?.items ?? 0,
		ms,
		startTime: firstRun?.startTime,
		wallMs,
		cpuMs,
		extra,
	};
	run.failure = failureOf(run, items);
	run.ok = run.failure === undefined;
	if (!run.ok) run.ms = NaN;
	return run;
}

/** Why a run does not count (an error, or another item count than expected), or undefined. */
function failureOf(run, items) {
	if (run.status !== 'success' || run.error) {
		const message = run.error
			? `${run.error.message ?? ''} ${run.error.description ?? ''}`.trim()
			: run.status;
		return `execution ${run.status}: ${message.split('\n')[0].slice(0, 200)}`;
	}
	if (items !== undefined && run.items !== items) return `${run.items} items, expected ${items}`;
	return undefined;
}

/** A 429 that ended the run, so the user saw it: read from the execution's error. */
export const limitedForUser = (run) =>
	run.status !== 'success' &&
	/429|rate limit|too many requests/i.test(JSON.stringify(run.error ?? {}))
		? 1
		: 0;

/** What the sandbox saw since its log was cleared: requests, 429 answers, arrival of the first and last request. */
export async function wire(control) {
	const requests = (await control.requests()).filter((r) => r.path.startsWith('/2025-09/'));
	return {
		requests: requests.length,
		limited: requests.filter((r) => r.status === 429).length,
		firstAt: requests.length ? Date.parse(requests[0].at) : NaN,
		lastAt: requests.length ? Date.parse(requests[requests.length - 1].at) : NaN,
		log: requests,
	};
}

/**
 * Credentials for one run, each with a fresh token (the sandbox limits per token, the node's budget is per token, so
 * every run starts with fresh windows on both). `storaSettings`: more fields of the Stora credential (its Rate Limit).
 */
export async function credentialsFor(n8n, sandbox, label, storaSettings = {}) {
	const token = sandbox.control ? await sandbox.control.token('all') : 'tok_bench';
	return {
		stora: await n8n.createCredential(`bench ${label} (Stora)`, 'storaApi', {
			baseUrl: sandbox.url,
			accessToken: token,
			...storaSettings,
		}),
		bearer: await n8n.createCredential(`bench ${label} (Bearer)`, 'httpBearerAuth', { token }),
		token,
	};
}

/** The CPU a run used per 1,000 of its items, in ms. */
export const cpuPer1000 = (run, count) => (run.cpuMs / count) * 1000;
