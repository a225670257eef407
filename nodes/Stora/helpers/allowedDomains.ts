/**
 * A credential's **Allowed HTTP Request Domains**, which n8n adds to both Stora credentials (n8n 1.x late and 2.x:
 * `allowedHttpRequestDomains` and `allowedDomains`) and enforces for its own declarative nodes. The Stora nodes send
 * every request themselves, so they apply it here, with n8n's reading of it for a node's own credential:
 *
 * - Specific Domains: only hosts in the list (`stora.example`, or `*.example` for its subdomains, never the bare
 *   domain); an empty list refuses everything, as n8n does.
 * - All, or None: no limit. n8n's None blocks the credential in the HTTP Request and GraphQL nodes only, never in the
 *   node the credential belongs to.
 *
 * On n8n versions without the setting the credential has neither field, and nothing changes.
 */
import type { IDataObject } from 'n8n-workflow';

const ALLOWED_DOMAINS_SETTING = 'Allowed HTTP Request Domains';

/** The credential's list of allowed domains (`a.example, *.b.example`), or undefined when it sets no limit. */
export function allowedDomainsOf(credentials: IDataObject): string | undefined {
	if (credentials.allowedHttpRequestDomains !== 'domains') return undefined;
	const list = typeof credentials.allowedDomains === 'string' ? credentials.allowedDomains.trim() : '';
	// An empty list allows nothing: a single comma matches no host.
	return list === '' ? ',' : list;
}

/** The host of an absolute URL as the list is matched against it: lower case, no trailing dot. */
function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname.toLowerCase().replace(/\.$/, '') || undefined;
	} catch {
		return undefined;
	}
}

/** Whether `url`'s host is in `allowed` (see above). */
export function isAllowedDomain(url: string, allowed: string): boolean {
	const host = hostOf(url);
	if (!host) return false;
	return allowed
		.split(',')
		.map((entry) => entry.trim().toLowerCase().replace(/\.$/, ''))
		.filter(Boolean)
		.some((entry) => (entry.startsWith('*.') ? entry.length > 2 && host.endsWith(entry.slice(1)) : host === entry));
}

/** Why a request to `url` is refused, and what to change; undefined when it may go. */
export function refusalOf(url: string, allowed: string | undefined): { message: string; description: string } | undefined {
	if (allowed === undefined || isAllowedDomain(url, allowed)) return undefined;
	const host = hostOf(url) ?? url.split(/[?#]/)[0];
	const list = allowed.replace(/^,$/, '').trim();
	return {
		message: `Domain not allowed: the Stora credential's ${ALLOWED_DOMAINS_SETTING} do not include ${host}`,
		description:
			`The credential allows ${list ? `only: ${list}` : 'no domain (Specific Domains with an empty list)'}, and this request goes to ${host}. ` +
			`Open the credential and add ${host} under Allowed Domains (or choose All), or set its Base URL to an allowed domain. ` +
			'Nothing was sent.',
	};
}
