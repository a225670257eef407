// Known n8n bugs of this version (versions.mjs): reproduced first with n8n's own nodes, so that a case one breaks is
// reported as that bug (and not counted) only where this n8n really shows it.
import { KnownN8nBug } from '../../realN8n/harness.mjs';
import { log, VERSION } from '../../realN8n/n8n.mjs';
import { KNOWN_N8N_BUGS } from '../../realN8n/versions.mjs';

/** Reproduces this version's known bugs; sets `ctx.knownBugOf(testCase)` and `ctx.caseCheck`. */
export async function knownBugChecks(ctx) {
	const { n8n, check } = ctx;
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
			log(
				`known n8n bug ${id}: ${shows ? 'shows' : 'does not show; the cases it affects count as usual'} (answer ${answer.text.slice(0, 200)})`,
			);
		});
	}
	/** The reproduced known n8n bug that breaks `testCase`, if any. */
	ctx.knownBugOf = (testCase) => reproduced.find((id) => KNOWN_N8N_BUGS[id].affects(testCase));
	/** A check of a case (workflow file or example) that a reproduced known n8n bug may break: then reported as that bug. */
	ctx.caseCheck = async (name, testCase, fn) =>
		await check(name, async () => {
			try {
				await fn();
			} catch (error) {
				const bug = ctx.knownBugOf(testCase);
				throw bug ? new KnownN8nBug(bug, error) : error;
			}
		});
}
