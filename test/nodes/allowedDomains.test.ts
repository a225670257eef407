/**
 * A credential's Allowed HTTP Request Domains, applied by n8n's HTTP client to the Stora nodes' requests: a host the
 * list leaves out is refused before anything is sent, with an error whose message names the setting and the host
 * (publishing a trigger shows the message alone).
 */
import { runStora, type CredentialStore } from '../helpers/n8n';
import { PollHarness } from '../helpers/poll';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const fixture = useSandboxForNode();

/** The sandbox's credential, limited to Stora's production host. */
function limited(): CredentialStore {
	const store = fixture.credentials();
	return { ...store, storaApi: { ...store.storaApi, allowedHttpRequestDomains: 'domains', allowedDomains: 'public-api.stora.co' } };
}

describe('Allowed HTTP Request Domains', () => {
	it('refuses the Stora node a host the list leaves out, naming the setting and the host, sending nothing', async () => {
		const { error } = await runStora({ credentials: limited(), parameters: { resource: 'site', operation: 'getAll', returnAll: false, limit: 1 } });
		expect(error?.message).toMatch(/^Domain not allowed by the Stora credential's Allowed HTTP Request Domains: .*127\.0\.0\.1/);
		expect(String(error?.description)).toContain('Nothing was sent.');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('refuses the Polling Trigger the same way, in the message', async () => {
		const poller = new PollHarness(limited(), { pollResource: 'site', event: 'created' });
		await expect(poller.poll('manual')).rejects.toThrow(/^Domain not allowed by the Stora credential's Allowed HTTP Request Domains: .*127\.0\.0\.1/);
		expect(await fixture.client.requests()).toEqual([]);
	});
});
