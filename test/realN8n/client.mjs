// A running n8n and the REST calls the suites make to it as the owner (credentials, workflows, webhooks,
// executions); `stop()` ends it by its PID, and its process group, so n8n's task runner goes with it.
import fs from 'node:fs';

import { OWNER, readIf, requireFromN8n, VERSION } from './basics.mjs';
import { UNFINISHED } from './executions.mjs';
import { sleep, until } from './wait.mjs';

export class N8n {
	constructor({ base, port, userFolder, child, logFile, ownsFolder }) {
		Object.assign(this, { base, port, userFolder, child, logFile, ownsFolder });
		this.pid = child.pid;
		this.timings = {};
		this.cookie = '';
		this.exited = false;
		child.on('exit', (code, signal) => {
			this.exited = true;
			this.exitCode = code ?? signal;
		});
	}

	logTail(lines = 40) {
		return readIf(this.logFile).split('\n').slice(-lines).join('\n');
	}

	async waitReady(timeoutMs = 180_000) {
		await until(
			async () => {
				if (this.exited)
					throw new Error(`n8n exited (${this.exitCode}) before it was ready:\n${this.logTail()}`);
				try {
					// /healthz answers before REST is mounted, and during migrations every route says "starting up": poll for JSON.
					const res = await fetch(`${this.base}/rest/settings`, {
						signal: AbortSignal.timeout(5000),
					});
					const text = await res.text();
					if (res.ok && text.includes('"data"')) {
						this.settings = JSON.parse(text).data;
						return true;
					}
				} catch {
					// not listening yet
				}
				return false;
			},
			() => `n8n to be ready:\n${this.logTail()}`,
			{ timeoutMs, every: 200 },
		);
	}

	async setupOwner() {
		const res = await this.request('POST', '/rest/owner/setup', OWNER, { raw: true });
		if (res.status !== 200) {
			// Already set up (reused user folder): log in instead.
			await this.login();
			return;
		}
		this.takeCookie(res);
	}

	async login() {
		const res = await this.request(
			'POST',
			'/rest/login',
			{ emailOrLdapLoginId: OWNER.email, password: OWNER.password },
			{ raw: true },
		);
		if (res.status !== 200) throw new Error(`n8n login failed: ${res.status} ${await res.text()}`);
		this.takeCookie(res);
	}

	takeCookie(res) {
		const auth = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!auth) throw new Error('n8n set no n8n-auth cookie');
		this.cookie = auth.split(';')[0];
	}

	/** A REST call with the owner's cookie. Returns `data` of the JSON answer, or the Response with `raw`. */
	async request(method, urlPath, body, { raw = false, headers = {} } = {}) {
		const res = await fetch(`${this.base}${urlPath}`, {
			method,
			headers: {
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...(this.cookie ? { cookie: this.cookie } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (raw) return res;
		const text = await res.text();
		if (!res.ok)
			throw new Error(`n8n ${method} ${urlPath} → ${res.status}: ${text.slice(0, 2000)}`);
		const parsed = text ? JSON.parse(text) : {};
		return parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed;
	}

	async createCredential(name, type, data) {
		return await this.request('POST', '/rest/credentials', { name, type, data });
	}

	async getCredential(id, { includeData = true } = {}) {
		return await this.request(
			'GET',
			`/rest/credentials/${id}${includeData ? '?includeData=true' : ''}`,
		);
	}

	async testCredential(credential) {
		return await this.request('POST', '/rest/credentials/test', { credentials: credential });
	}

	async createWorkflow(workflow) {
		// n8n 1.x refuses a new workflow without `active` (versions.mjs, api.createNeedsActive).
		return await this.request(
			'POST',
			'/rest/workflows',
			VERSION.api.createNeedsActive ? { active: false, ...workflow } : workflow,
		);
	}

	/** Publishes (activates) a workflow; synchronous because the publication service is off. */
	async activate(workflow) {
		return await this.request('POST', `/rest/workflows/${workflow.id}/activate`, {
			versionId: workflow.versionId,
		});
	}

	async deactivate(workflow) {
		return await this.request('POST', `/rest/workflows/${workflow.id}/deactivate`, {});
	}

	async deleteWorkflow(workflow) {
		await this.deactivate(workflow).catch(() => {});
		await this.request('POST', `/rest/workflows/${workflow.id}/archive`, {}).catch(() => {});
		await this.request('DELETE', `/rest/workflows/${workflow.id}`).catch(() => {});
	}

	/** Calls a production webhook; returns { status, body (parsed JSON when possible), text, ms }. */
	async callWebhook(webhookPath, { method = 'POST', body, query, timeoutMs = 120_000 } = {}) {
		const qs = query ? `?${new URLSearchParams(query)}` : '';
		const started = Date.now();
		const res = await fetch(`${this.base}/webhook/${webhookPath}${qs}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(timeoutMs),
		});
		const text = await res.text();
		let parsed = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON
		}
		return {
			status: res.status,
			body: parsed,
			text,
			headers: res.headers,
			ms: Date.now() - started,
		};
	}

	/** Runs a saved workflow as the editor's "Execute workflow" does, from the given trigger; returns the finished execution. */
	async runManually(workflowId, triggerName, { timeoutMs = 60_000 } = {}) {
		const workflowData = await this.request('GET', `/rest/workflows/${workflowId}`);
		const started = await this.request('POST', `/rest/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: triggerName },
		});
		return await until(
			async () => {
				const execution = await this.execution(started.executionId);
				return !UNFINISHED.includes(execution.status) && execution;
			},
			`manual execution ${started.executionId} to finish`,
			{ timeoutMs, every: 250 },
		);
	}

	/** Executions of a workflow, newest first (summaries). */
	async executions(workflowId, { limit = 20, lastId } = {}) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.request(
			'GET',
			`/rest/executions?filter=${filter}&limit=${limit}${lastId ? `&lastId=${lastId}` : ''}`,
		);
		return data.results ?? data;
	}

	/** Every execution of a workflow, newest first, in pages of n8n's maximum of 100. */
	async allExecutions(workflowId) {
		const all = [];
		for (;;) {
			const page = await this.executions(workflowId, { limit: 100, lastId: all.at(-1)?.id });
			all.push(...page);
			if (page.length < 100) return all;
		}
	}

	/** One execution with its run data decoded (n8n serializes it with `flatted`). */
	async execution(id) {
		let data;
		for (let attempt = 1; ; attempt++) {
			try {
				data = await this.request('GET', `/rest/executions/${id}`);
				break;
			} catch (error) {
				// Some n8n answer 500 while the execution is still running (versions.mjs, api.executionBusy500).
				if (!VERSION.api.executionBusy500 || !/ → 500:/.test(error.message) || attempt >= 40)
					throw error;
				await sleep(250);
			}
		}
		if (typeof data.data === 'string') data.data = requireFromN8n('flatted').parse(data.data);
		return data;
	}

	/** Waits until a workflow has an execution that is no longer running; returns it decoded. */
	async lastExecution(workflowId, { timeoutMs = 30_000 } = {}) {
		const latest = await until(
			async () => {
				const [newest] = await this.executions(workflowId);
				return newest && !UNFINISHED.includes(newest.status) && newest;
			},
			`a finished execution of workflow ${workflowId}`,
			{ timeoutMs, every: 200 },
		);
		return await this.execution(latest.id);
	}

	/** SIGTERM by PID, then SIGKILL of its process group if it does not exit; removes the user folder it created. */
	async stop({ keepFolder = false } = {}) {
		if (!this.exited && this.pid) {
			const gone = new Promise((resolve) => this.child.once('exit', resolve));
			try {
				process.kill(this.pid, 'SIGTERM');
			} catch {
				// already gone
			}
			const timedOut = await Promise.race([gone.then(() => false), sleep(20_000).then(() => true)]);
			if (timedOut) {
				try {
					process.kill(-this.pid, 'SIGKILL');
				} catch {
					// already gone
				}
				await Promise.race([gone, sleep(5000)]);
			}
		}
		// The task runner lives in n8n's process group; make sure nothing of it survived.
		try {
			process.kill(-this.pid, 0);
			process.kill(-this.pid, 'SIGKILL');
		} catch {
			// group is empty
		}
		if (this.ownsFolder && !keepFolder)
			fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}
