/**
 * The records of a sandbox: the collections the resource modules define (name, aliases, id prefix, key) and the
 * records stored in each, in insertion order (`sequenceOf`, the list engine's tie-break). `Sandbox` (sandbox.ts)
 * builds on it; the resource modules reach these methods through `SandboxCore` (types.ts).
 */
import { copyJson } from './copy';
import { notFound } from './errors';
import type { ApiRecord, CollectionOptions } from './types';

export abstract class RecordStore {
	protected readonly collections = new Map<string, CollectionOptions>();
	private readonly aliases = new Map<string, string>();
	protected readonly data = new Map<string, Map<string, ApiRecord>>();
	private readonly sequence = new Map<string, number>();
	private sequenceCounter = 0;

	/** The time records are stamped with (`updated_at` on update). */
	abstract now(): Date;

	defineCollection(options: CollectionOptions) {
		if (this.collections.has(options.name))
			throw new Error(`Collection defined twice: ${options.name}`);
		this.collections.set(options.name, options);
		this.data.set(options.name, new Map());
		for (const alias of options.aliases ?? []) this.aliases.set(alias, options.name);
	}

	collectionNames(): string[] {
		return [...this.collections.keys()];
	}

	collectionOptions(name: string): CollectionOptions | undefined {
		return this.collections.get(name) ?? this.collections.get(this.aliases.get(name) ?? '');
	}

	/** The collection an id belongs to, by longest matching prefix. */
	collectionFor(id: string): CollectionOptions | undefined {
		let best: CollectionOptions | undefined;
		for (const c of this.collections.values()) {
			if (id.startsWith(c.prefix) && (!best || c.prefix.length > best.prefix.length)) best = c;
		}
		return best;
	}

	/** The collection whose singular key is `key` (event types name it: `invoice.paid` → `invoice`). */
	collectionByKey(key: string): CollectionOptions | undefined {
		return [...this.collections.values()].find((c) => c.key === key);
	}

	protected mustCollection(name: string): CollectionOptions {
		const found = this.collectionOptions(name);
		if (!found) throw new Error(`Unknown collection: ${name}`);
		return found;
	}

	protected store(name: string): Map<string, ApiRecord> {
		return this.data.get(this.mustCollection(name).name)!;
	}

	/** Empties every collection (their definitions stay) and restarts the insertion order. */
	protected clearRecords() {
		for (const records of this.data.values()) records.clear();
		this.sequence.clear();
		this.sequenceCounter = 0;
	}

	/** A record's place in insertion order (records never inserted come last). */
	protected sequenceOf(id: string): number {
		return this.sequence.get(id) ?? Number.MAX_SAFE_INTEGER;
	}

	all(collection: string): ApiRecord[] {
		return [...this.store(collection).values()];
	}

	get(collection: string, id: string): ApiRecord | undefined {
		return this.store(collection).get(id);
	}

	find(id: string): ApiRecord | undefined {
		const collection = this.collectionFor(id);
		return collection ? this.data.get(collection.name)!.get(id) : undefined;
	}

	insert(collection: string, record: ApiRecord): ApiRecord {
		const stored = copyJson(record);
		this.store(collection).set(stored.id, stored);
		if (!this.sequence.has(stored.id)) this.sequence.set(stored.id, ++this.sequenceCounter);
		return stored;
	}

	update(collection: string, id: string, changes: Record<string, unknown>): ApiRecord {
		const stored = this.mustGet(collection, id);
		Object.assign(stored, copyJson(changes), { updated_at: this.now().toISOString() });
		return stored;
	}

	remove(collection: string, id: string): void {
		this.store(collection).delete(id);
	}

	mustGet(collection: string, id: string): ApiRecord {
		const found = this.get(collection, id);
		if (found) return found;
		const key = this.mustCollection(collection).key.replace(/_/g, ' ');
		throw notFound(key.charAt(0).toUpperCase() + key.slice(1), id);
	}
}
