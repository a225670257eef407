/**
 * `Idempotency-Key` on POST: the first response (status, headers, body; success or error) is kept 24 hours of
 * sandbox time and replayed for repeats of the same key by the same caller (token creator). After 24 hours
 * the key counts as new. Keys are scoped per creator so two integrations cannot see each other's responses.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
	storedAt: number;
}

export class IdempotencyStore {
	private readonly entries = new Map<string, StoredResponse>();

	clear() {
		this.entries.clear();
	}

	lookup(creator: string, key: string, now: number): StoredResponse | undefined {
		const entry = this.entries.get(`${creator}\n${key}`);
		if (!entry) return undefined;
		if (now - entry.storedAt >= IDEMPOTENCY_TTL_MS) {
			this.entries.delete(`${creator}\n${key}`);
			return undefined;
		}
		return entry;
	}

	store(creator: string, key: string, response: StoredResponse) {
		this.entries.set(`${creator}\n${key}`, response);
	}
}
