import { createHash } from 'node:crypto';

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** 16 base62 characters derived from a label; the same label always gives the same string. */
export function stableSuffix(label: string): string {
	const digest = createHash('sha256').update(label).digest();
	let out = '';
	for (let i = 0; i < 16; i++) out += BASE62[digest[i] % 62];
	return out;
}

/**
 * Deterministic identifiers: `<prefix><16 base62 chars>` derived from the seed name and a counter. The counter
 * restarts on every reset, so the same seed always yields the same ids, and records created afterwards get ids
 * that differ from every seeded one (the counter keeps growing).
 */
export class IdGenerator {
	private counter = 0;

	constructor(private seed: string) {}

	reset(seed: string) {
		this.seed = seed;
		this.counter = 0;
	}

	next(prefix: string): string {
		this.counter += 1;
		return prefix + stableSuffix(`${this.seed}:${this.counter}`);
	}
}
