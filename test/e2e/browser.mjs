// The Chromium parts of the end-to-end tests, in this order: the OAuth2 authorization code flow with PKCE exactly as
// a user does it and refresh-token rotation (browser/oauth2.mjs), then editor checks with screenshots: node panels of
// several resources and of the trigger, dropdowns loaded from the API, "From List" resource locators, hints,
// credential dialogs (browser/*.mjs), a workflow built from an empty canvas (browser/buildWorkflow.mjs), the README's
// Usage walked step by step (browser/usage.mjs), both Stora credentials in the HTTP Request node's Credential Type
// (browser/credentialPicker.mjs), and no console errors. `pickerChecks` runs the last two alone (`--only n8n-contract`).
//
// Chromium and the editor helpers come from test/realN8n/chromium.mjs.
import { fieldChecks } from './browser/fields.mjs';
import { hintChecks } from './browser/hints.mjs';
import { listChecks } from './browser/lists.mjs';
import { nodePanelChecks } from './browser/nodePanel.mjs';
import { connectChecks } from './browser/oauth2.mjs';
import { chromiumSession, consoleCheck } from './browser/session.mjs';
import { triggerPanelChecks } from './browser/trigger.mjs';
import { buildWorkflowChecks } from './browser/buildWorkflow.mjs';
import { credentialPickerChecks } from './browser/credentialPicker.mjs';
import { usageChecks } from './browser/usage.mjs';

export async function browserChecks(ctx) {
	console.log('\nBrowser (Chromium): OAuth2 authorization code with PKCE');
	const session = await chromiumSession(ctx);
	if (!session) return;
	// The run's context with the session's page, shot and (screenshot-taking) check.
	const b = { ...ctx, ...session };
	await connectChecks(b);

	console.log('\nBrowser (Chromium): editor');
	await nodePanelChecks(b);
	// Leaving a workflow with unsaved changes (fields added in a panel) asks before unloading: leave.
	b.page.on('dialog', (dialog) =>
		(dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => {}),
	);
	await fieldChecks(b);
	await listChecks(b);
	await triggerPanelChecks(b);
	await hintChecks(b);
	await buildWorkflowChecks(b);
	// Before Usage, which deletes its workflows once the editor is closed: an editor opened after that asks n8n again
	// for the workflows it showed, and n8n answers 404 (console errors).
	await credentialPickerChecks(b);
	await usageChecks(b);
	await consoleCheck(b);
}

/** Only the credential picker (and the console), in a Chromium session of its own. */
export async function pickerChecks(ctx) {
	console.log("\nBrowser (Chromium): the HTTP Request node's credential picker");
	const session = await chromiumSession(ctx);
	if (!session) return;
	const b = { ...ctx, ...session };
	b.page.on('dialog', (dialog) =>
		(dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => {}),
	);
	await credentialPickerChecks(b);
	await consoleCheck(b);
}
