/**
 * Settings → Request Options: the collection n8n adds to every node without an `execute` of its own when it loads the
 * package (n8n-core's DirectoryLoader, `applyDeclarativeNodeOptionParameters`), so the Stora node shows it. n8n's
 * RoutingNode applies it to a declarative node's runs; the Stora node's own runs (routedOperations.ts) apply it the
 * same way, read once per run:
 *
 * - Batching: items are built and sent in batches of Items per Batch, Batch Interval apart (-1 turns it off, as the
 *   setting's description says).
 * - Ignore SSL Issues, Proxy: on every request of the run (Return All's pages too), as n8n's HTTP client takes them.
 * - Timeout: how long each attempt waits for Stora's answer. The transport retries an attempt that timed out when
 *   repeating is safe (GET, DELETE, a POST with its Idempotency-Key), so a run may wait up to three times as long.
 */
import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The parameter's name, as n8n adds it. */
export const REQUEST_OPTIONS = 'requestOptions';

/** What RoutingNode sends when Timeout is not set; the transport then waits its own timeout per attempt. */
const ROUTING_TIMEOUT_MS = 300_000;

export interface RequestSettings {
	proxy?: IHttpRequestOptions['proxy'];
	skipSslCertificateValidation?: boolean;
	/** Timeout, when the user set it. */
	timeoutMs?: number;
	/** Items per batch and the pause between batches, when Batching spaces requests. */
	batch?: { size: number; intervalMs: number };
	/** The credential's Allowed HTTP Request Domains, which n8n enforces on the request and its redirects (2.x). */
	allowedDomains?: string;
}

interface RawRequestOptions {
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	allowUnauthorizedCerts?: boolean;
	proxy?: string;
	timeout?: number;
}

/** A proxy URL as n8n's HTTP client takes it; a clear error naming the setting when it is not one. */
function proxyOf(text: string, node: INode, itemIndex: number): IHttpRequestOptions['proxy'] {
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	// An explicit port, as RoutingNode requires (the URL parser drops a scheme's default port, so read it from the text).
	const port = url ? Number(url.port || /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^/:?#]+):(\d+)/i.exec(text)?.[1]) : NaN;
	if (!url?.hostname || !Number.isInteger(port) || port <= 0) {
		throw new NodeOperationError(node, 'The proxy is not valid', {
			itemIndex,
			description: `Settings → Request Options → Proxy is "${text.replace(/\/\/[^@/]*@/, '//***@')}": use a URL with a host and a port, for example http://myproxy:3128 (with a user: http://user:password@myproxy:3128).`,
		});
	}
	const proxy: NonNullable<IHttpRequestOptions['proxy']> = {
		host: url.hostname,
		port,
		protocol: url.protocol.replace(/:$/, '') || undefined,
	};
	if (url.username || url.password) proxy.auth = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
	return proxy;
}

/** The node's Request Options as the run applies them. */
export function requestSettingsOf(raw: unknown, node: INode, itemIndex = 0): RequestSettings {
	const options = (raw && typeof raw === 'object' ? raw : {}) as RawRequestOptions;
	const settings: RequestSettings = {};
	if (options.proxy) settings.proxy = proxyOf(String(options.proxy), node, itemIndex);
	if (options.allowUnauthorizedCerts) settings.skipSslCertificateValidation = true;
	if (options.timeout) settings.timeoutMs = Number(options.timeout);
	const batch = options.batching?.batch;
	const size = Number(batch?.batchSize ?? 50);
	const interval = Number(batch?.batchInterval ?? 0);
	// 0 items per batch counts as 1, as the setting says; -1 turns batching off.
	if (batch && size !== -1 && interval > 0) settings.batch = { size: size > 0 ? size : 1, intervalMs: interval };
	return settings;
}

/** The request options RoutingNode adds from the settings (its default timeout included), onto `options`. */
export function applyRequestSettings(options: IDataObject, settings: RequestSettings): void {
	if (settings.proxy) options.proxy = settings.proxy as IDataObject;
	if (settings.skipSslCertificateValidation) options.skipSslCertificateValidation = true;
	options.timeout = settings.timeoutMs ?? ROUTING_TIMEOUT_MS;
	if (settings.allowedDomains !== undefined) options.allowedDomains = settings.allowedDomains;
}
