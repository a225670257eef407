// The OAuth2 authorization code flow with PKCE exactly as a user does it: n8n editor → credential → "Connect my
// account" → the sandbox's consent page → n8n's callback; then the refresh-token rotation (../checks/oauth2.mjs).
import { closeDialog, openCredential, textAndValues } from '../../realN8n/chromium.mjs';
import { authorizationCodeCredential } from '../../realN8n/sandbox.mjs';
import { until } from '../../realN8n/wait.mjs';
import { refreshCheck } from '../checks/oauth2.mjs';

export async function connectChecks(b) {
	const { n8n, sandbox, check, assertMatch, callback, chromium, page, shot } = b;
	// A client registered for this n8n's callback URL, and an authorization-code credential using it.
	let credential;
	let client;
	let connected = false;
	await check(
		'"Connect my account" → sandbox consent page → Approve → n8n stores the tokens (PKCE S256)',
		async () => {
			await sandbox.control.reset('demo');
			client = await sandbox.control.oauthClient([callback]);
			credential = await n8n.createCredential(
				'Stora sandbox (OAuth2)',
				'storaOAuth2Api',
				authorizationCodeCredential(sandbox, client),
			);
			b.credentials.oauth2AuthorizationCode = credential;
			await sandbox.control.clearRequests();

			const dialog = await openCredential(page, n8n, credential.id);
			await until(
				async () => (await textAndValues(dialog)).includes(callback),
				`the dialog does not show the OAuth redirect URL ${callback}`,
				{ timeoutMs: 20_000 },
			);
			await shot(page, 'credential-oauth2-authorization-code');
			const connect = dialog
				.getByRole('button', { name: /^\s*(connect|connect my account)\s*$/i })
				.first();
			const popupPromise = chromium.context.waitForEvent('page', { timeout: 30_000 });
			popupPromise.catch(() => {}); // awaited below; keeps a failed click from leaving an unhandled rejection
			await connect.click();
			const popup = await popupPromise;
			// n8n opens the popup blank, then points it at the authorization URL it got from /rest/oauth2-credential/auth.
			await popup
				.waitForURL((url) => url.href.startsWith(`${sandbox.url}/oauth2/authorize`), {
					timeout: 30_000,
				})
				.catch(() => {
					throw new Error(`the popup shows ${popup.url()}, not the sandbox consent page`);
				});
			const authorizeUrl = new URL(popup.url());
			assertMatch(
				Object.fromEntries(authorizeUrl.searchParams),
				{
					client_id: client.client_id,
					response_type: 'code',
					redirect_uri: callback,
					code_challenge_method: 'S256',
					code_challenge: { $regex: '^[A-Za-z0-9_-]{43}$' },
				},
				'authorization request',
			);
			await popup.getByRole('button', { name: 'Approve' }).waitFor();
			await shot(popup, 'sandbox-consent-page');
			const closed = popup.waitForEvent('close', { timeout: 30_000 }).catch(() => undefined);
			await popup.getByRole('button', { name: 'Approve' }).click();
			await closed;
			await dialog
				.locator('[data-test-id="oauth-connect-success-banner"]')
				.waitFor({ state: 'visible', timeout: 30_000 });
			await shot(page, 'credential-oauth2-connected');
			const tokenRequests = (await sandbox.control.requests()).filter(
				(r) => r.path === '/oauth2/token',
			);
			assertMatch(
				tokenRequests,
				[
					{
						method: 'POST',
						status: 200,
						body: {
							grant_type: 'authorization_code',
							code_verifier: { $regex: '^[A-Za-z0-9._~-]{43,128}$' },
							redirect_uri: callback,
						},
					},
				],
				'token request of the code exchange',
			);
			await closeDialog(page);
			connected = true;
		},
	);

	if (connected) await refreshCheck(b, client);
}
