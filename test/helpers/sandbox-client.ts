/** Talks to the sandbox's control plane (`/__sandbox/...`) over HTTP, the way every test inspects and arranges state. */
export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status: number;
	at: string;
}

export type StateRecord = { id: string } & Record<string, unknown>;

export class SandboxClient {
	constructor(readonly url: string) {}

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	async reset(seed = 'demo') {
		await this.call('POST', '/__sandbox/reset', { seed });
	}

	async requests(): Promise<RecordedRequest[]> {
		return (await this.call<{ requests: RecordedRequest[] }>('GET', '/__sandbox/requests')).requests;
	}

	async clearRequests() {
		await this.call('DELETE', '/__sandbox/requests');
	}

	async state(collection: string): Promise<StateRecord[]> {
		return (await this.call<Record<string, StateRecord[]>>('GET', `/__sandbox/state/${collection}`))[collection];
	}

	/** Inserts records into a collection as the API would render them (ids and timestamps filled in when missing). */
	async insert(collection: string, records: Array<Record<string, unknown>>): Promise<StateRecord[]> {
		return (await this.call<Record<string, StateRecord[]>>('POST', `/__sandbox/state/${collection}`, { records }))[
			collection
		];
	}

	/** Adds `count` sites named "<n> Depot", one second apart, so lists need several pages. */
	async addSites(count: number) {
		const base = Date.parse('2024-01-01T00:00:00.000Z');
		const [template] = await this.state('sites');
		const records = Array.from({ length: count }, (_, n) => {
			const at = new Date(base + n * 1000).toISOString();
			const record: Record<string, unknown> = { ...template, name: `${n} Depot`, created_at: at, updated_at: at };
			delete record.id;
			return record;
		});
		return await this.insert('sites', records);
	}

	async token(scopes: string[] | 'all', expiresIn?: number): Promise<string> {
		const body: Record<string, unknown> = { scopes };
		if (expiresIn !== undefined) body.expires_in = expiresIn;
		return (await this.call<{ access_token: string }>('POST', '/__sandbox/tokens', body)).access_token;
	}

	async oauthClient(redirectUris: string[] = ['http://127.0.0.1/callback'], scopes?: string[]) {
		return await this.call<{ client_id: string; client_secret: string }>('POST', '/__sandbox/oauth-clients', {
			redirect_uris: redirectUris,
			...(scopes ? { scopes } : {}),
		});
	}

	async clearFaults() {
		await this.call('DELETE', '/__sandbox/faults');
	}

	async fault(match: { method?: string; path?: string }, responses: Array<Record<string, unknown>>) {
		await this.call('POST', '/__sandbox/faults', { match, responses });
	}
}
