// "No secret in any log or error": every token, client secret, refresh token and webhook secret the sandbox issued
// during the run is collected (before each reset forgets them), then n8n's log, the error of every execution and
// the sandbox's request log are searched for them.

/** Remembers every secret the in-process sandbox holds right now; call it before each reset and at the end. */
export function collectSecrets(sandbox, into) {
	const core = sandbox.core;
	for (const token of core.auth.tokens.values()) into.add(token.token);
	for (const client of core.auth.clients.values()) into.add(client.clientSecret);
	for (const refresh of core.auth.refreshTokens.values()) into.add(refresh.token);
	for (const secret of core.webhookSecrets.values()) into.add(secret);
	if (sandbox.token) into.add(sandbox.token);
	return into;
}

/** The places a run wrote that could leak a secret, as [label, text] pairs. */
async function writtenByTheRun(n8n, sandbox, workflowIds) {
	const fs = await import('node:fs');
	const places = [['n8n log', fs.readFileSync(n8n.logFile, 'utf8')]];
	places.push(['sandbox request log', JSON.stringify(await sandbox.control.requests())]);
	for (const workflowId of workflowIds) {
		for (const summary of await n8n.allExecutions(workflowId)) {
			const execution = await n8n.execution(summary.id);
			const resultData = execution.data?.resultData ?? {};
			const errors = [
				resultData.error,
				...Object.values(resultData.runData ?? {})
					.flat()
					.map((run) => run.error),
			].filter(Boolean);
			if (errors.length) places.push([`errors of execution ${summary.id}`, JSON.stringify(errors)]);
		}
	}
	return places;
}

/** Throws naming where a secret appeared (never the secret itself); returns what was searched. */
export async function assertNoSecretLeaked({ n8n, sandbox, workflowIds, secrets }) {
	const places = await writtenByTheRun(n8n, sandbox, workflowIds);
	const searched = [...secrets].filter(
		(secret) => typeof secret === 'string' && secret.length >= 16,
	);
	const leaks = [];
	for (const [label, text] of places) {
		const found = searched.filter((secret) => text.includes(secret)).length;
		if (found) leaks.push(`${found} secret(s) in ${label}`);
	}
	if (leaks.length) throw new Error(leaks.join('\n'));
	return {
		secrets: searched.length,
		places: places.length,
		bytes: places.reduce((sum, [, text]) => sum + text.length, 0),
	};
}
