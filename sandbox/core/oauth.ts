/**
 * OAuth 2 server: `POST /oauth2/token` (client_credentials, authorization_code with optional PKCE S256,
 * refresh_token with rotation), `GET|POST /oauth2/authorize` (HTML consent page, then a 302 back to the
 * client), `POST /oauth2/introspect` and `GET /oauth2/token/info`.
 *
 * Unconfirmed choices (the docs show no token-endpoint errors): errors use the RFC 6749 §5.2 shape
 * `{error, error_description}`; 401 for `invalid_client` (with `WWW-Authenticate: Basic` when Basic auth was
 * used), 400 for the rest. The token endpoint accepts JSON and form bodies for every grant, and client
 * credentials in the body or via HTTP Basic. Codes live 10 minutes and are single-use. A refresh keeps the
 * previous access token valid until it expires; only the previous refresh token is revoked.
 */
import { timingSafeEqual } from 'node:crypto';

import type { OAuthClient } from './auth';
import { randomToken, s256 } from './auth';
import type { Sandbox } from './sandbox';
import type { Reply, RequestContext } from './types';

const CODE_TTL_MS = 10 * 60 * 1000;
const OPERATOR_NAME = 'Acme Storage Ltd';

class OAuthError extends Error {
	constructor(
		readonly status: number,
		readonly error: string,
		description: string,
		readonly headers: Record<string, string> = {},
	) {
		super(description);
	}
}

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function safeEqual(a: string, b: string) {
	const ba = Buffer.from(a);
	const bb = Buffer.from(b);
	return ba.length === bb.length && timingSafeEqual(ba, bb);
}

export function registerOAuth(sb: Sandbox) {
	sb.route('POST', '/oauth2/token', { scopes: [], public: true }, (ctx) => {
		try {
			return token(sb, ctx);
		} catch (e) {
			// Anything unexpected still answers in the RFC shape (`server_error`) rather than the API envelope.
			const error =
				e instanceof OAuthError
					? e
					: new OAuthError(
							500,
							'server_error',
							'The authorization server encountered an unexpected condition.',
						);
			return {
				status: error.status,
				body: { error: error.error, error_description: error.message },
				headers: { ...noStore, ...error.headers },
			};
		}
	});
	sb.route('GET', '/oauth2/authorize', { scopes: [], public: true }, (ctx) =>
		authorize(sb, ctx, ctx.query),
	);
	sb.route('POST', '/oauth2/authorize', { scopes: [], public: true }, (ctx) =>
		authorize(sb, ctx, { ...ctx.query, ...stringFields(ctx.body) }),
	);
	sb.route('POST', '/oauth2/introspect', { scopes: [] }, (ctx) => {
		const body = stringFields(ctx.body);
		const value = body.token ?? ctx.caller.token;
		const found = sb.auth.active(value, sb.now().getTime());
		if (!found) return { body: { active: false } };
		return {
			body: {
				active: true,
				scope: found.scopes.join(' '),
				client_id: found.clientId ?? null,
				token_type: 'Bearer',
				iat: Math.floor(found.createdAt / 1000),
				exp: found.expiresAt === null ? null : Math.floor(found.expiresAt / 1000),
			},
		};
	});
	sb.route('GET', '/oauth2/token/info', { scopes: [] }, (ctx) => {
		const found = sb.auth.tokens.get(ctx.caller.token)!;
		return {
			body: {
				scope: [...found.scopes],
				// As in the docs' example: an absolute Unix time, unlike the duration returned by POST /oauth2/token.
				expires_in: found.expiresAt === null ? null : Math.floor(found.expiresAt / 1000),
				created_at: Math.floor(found.createdAt / 1000),
				application: found.clientId ? { uid: found.clientId } : null,
				operator: { name: OPERATOR_NAME },
			},
		};
	});
}

function stringFields(body: unknown): Record<string, string> {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(body as Record<string, unknown>))
		if (typeof v === 'string') out[k] = v;
	return out;
}

function authenticateClient(
	sb: Sandbox,
	ctx: RequestContext,
	body: Record<string, string>,
): OAuthClient {
	let id = body.client_id;
	let secret = body.client_secret;
	const basic = /^Basic\s+(\S+)$/i.exec(ctx.headers.authorization ?? '');
	if (basic) {
		const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon >= 0) {
			id = decodeURIComponent(decoded.slice(0, colon));
			secret = decodeURIComponent(decoded.slice(colon + 1));
		}
	}
	const challenge: Record<string, string> = basic
		? { 'WWW-Authenticate': 'Basic realm="Stora"' }
		: {};
	const client = id ? sb.auth.clients.get(id) : undefined;
	if (!client || !secret || !safeEqual(secret, client.clientSecret)) {
		throw new OAuthError(
			401,
			'invalid_client',
			'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
			challenge,
		);
	}
	return client;
}

function issue(sb: Sandbox, client: OAuthClient, scopes: string[], withRefresh: boolean): Reply {
	const now = sb.now().getTime();
	const ttl = sb.config.tokenTtlSeconds;
	const access = sb.auth.issue({
		kind: 'oauth',
		scopes,
		creator: { id: client.appId },
		clientId: client.clientId,
		createdAt: now,
		expiresAt: now + ttl * 1000,
	});
	let refresh: string | null = null;
	if (withRefresh) {
		refresh = randomToken();
		sb.auth.refreshTokens.set(refresh, {
			token: refresh,
			clientId: client.clientId,
			scopes,
			revoked: false,
		});
	}
	return {
		status: 200,
		headers: noStore,
		body: {
			access_token: access.token,
			token_type: 'Bearer',
			expires_in: ttl,
			scope: scopes.join(' '),
			created_at: Math.floor(now / 1000),
			refresh_token: refresh,
		},
	};
}

function parseScopes(raw: string | undefined): string[] {
	return (raw ?? '').split(/\s+/).filter(Boolean);
}

function token(sb: Sandbox, ctx: RequestContext): Reply {
	const body = stringFields(ctx.body);
	const grant = body.grant_type;
	if (!grant)
		throw new OAuthError(
			400,
			'invalid_request',
			'The request is missing a required parameter: grant_type.',
		);
	if (!['client_credentials', 'authorization_code', 'refresh_token'].includes(grant)) {
		throw new OAuthError(
			400,
			'unsupported_grant_type',
			`The authorization grant type '${grant}' is not supported by the authorization server.`,
		);
	}
	const client = authenticateClient(sb, ctx, body);

	if (grant === 'client_credentials') {
		const requested = parseScopes(body.scope);
		// The docs mark `scope` required; we are lenient and grant the client's full scope list when it is absent.
		const scopes = requested.length ? requested : client.scopes;
		const unknown = scopes.filter((s) => !client.scopes.includes(s));
		if (unknown.length)
			throw new OAuthError(
				400,
				'invalid_scope',
				`The requested scope is invalid, unknown, or malformed: ${unknown.join(' ')}`,
			);
		return issue(sb, client, scopes, false);
	}

	if (grant === 'authorization_code') {
		const code = body.code ? sb.auth.codes.get(body.code) : undefined;
		const invalid = (why: string) =>
			new OAuthError(
				400,
				'invalid_grant',
				`The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client. (${why})`,
			);
		if (!body.code)
			throw new OAuthError(
				400,
				'invalid_request',
				'The request is missing a required parameter: code.',
			);
		if (!code || code.used || code.expiresAt <= sb.now().getTime())
			throw invalid('unknown, used or expired code');
		if (code.clientId !== client.clientId) throw invalid('code issued to another client');
		if (body.redirect_uri !== code.redirectUri) throw invalid('redirect_uri mismatch');
		if (code.challenge) {
			if (!body.code_verifier)
				throw new OAuthError(
					400,
					'invalid_request',
					'The request is missing a required parameter: code_verifier.',
				);
			if (s256(body.code_verifier) !== code.challenge)
				throw invalid('PKCE code_verifier does not match the code_challenge');
		}
		code.used = true;
		return issue(sb, client, code.scopes, true);
	}

	// refresh_token: rotation — the presented refresh token is revoked and a new pair is issued.
	if (!body.refresh_token)
		throw new OAuthError(
			400,
			'invalid_request',
			'The request is missing a required parameter: refresh_token.',
		);
	const refresh = sb.auth.refreshTokens.get(body.refresh_token);
	if (!refresh || refresh.revoked || refresh.clientId !== client.clientId) {
		throw new OAuthError(
			400,
			'invalid_grant',
			'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
		);
	}
	refresh.revoked = true;
	return issue(sb, client, refresh.scopes, true);
}

const escapeHtml = (s: string) =>
	s.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
	);

function htmlPage(status: number, title: string, inner: string): Reply {
	return {
		status,
		headers: { 'Content-Type': 'text/html; charset=utf-8', ...noStore },
		raw: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${inner}\n</body></html>\n`,
	};
}

function redirect(uri: string, params: Record<string, string | undefined>): Reply {
	const url = new URL(uri);
	for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
	return { status: 302, headers: { Location: url.toString(), ...noStore }, raw: '' };
}

/**
 * GET shows the consent page; POST with `decision=approve|deny` redirects back. Problems with the client or the
 * redirect URI are shown as an HTML error (never redirected, RFC 6749 §4.1.2.1); other problems redirect with
 * `error=`.
 */
function authorize(sb: Sandbox, ctx: RequestContext, params: Record<string, string>): Reply {
	const client = params.client_id ? sb.auth.clients.get(params.client_id) : undefined;
	if (!client)
		return htmlPage(
			400,
			'Authorization error',
			'<h1>Authorization error</h1><p>Unknown client_id.</p>',
		);
	const redirectUri = params.redirect_uri;
	if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
		return htmlPage(
			400,
			'Authorization error',
			'<h1>Authorization error</h1><p>The redirect_uri is not registered for this application.</p>',
		);
	}
	const state = params.state;
	if (params.response_type !== 'code')
		return redirect(redirectUri, { error: 'unsupported_response_type', state });
	const requested = parseScopes(params.scope);
	const scopes = requested.length ? requested : client.scopes;
	const unknown = scopes.filter((s) => !client.scopes.includes(s));
	if (unknown.length)
		return redirect(redirectUri, {
			error: 'invalid_scope',
			error_description: `Unknown scope: ${unknown.join(' ')}`,
			state,
		});
	if (params.code_challenge && (params.code_challenge_method ?? 'plain') !== 'S256') {
		return redirect(redirectUri, {
			error: 'invalid_request',
			error_description: 'Only code_challenge_method=S256 is supported',
			state,
		});
	}

	if (ctx.method === 'GET' || !params.decision) {
		const hidden = [
			'client_id',
			'redirect_uri',
			'response_type',
			'scope',
			'state',
			'code_challenge',
			'code_challenge_method',
		]
			.filter((k) => params[k] !== undefined)
			.map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params[k])}">`)
			.join('\n');
		return htmlPage(
			200,
			`Authorize ${client.name}`,
			`<h1>Authorize ${escapeHtml(client.name)}</h1>
<p><strong>${escapeHtml(client.name)}</strong> would like to access <strong>${escapeHtml(OPERATOR_NAME)}</strong> with these permissions:</p>
<ul>
${scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('\n')}
</ul>
<form method="post" action="/oauth2/authorize">
${hidden}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
		);
	}
	if (params.decision !== 'approve')
		return redirect(redirectUri, {
			error: 'access_denied',
			error_description: 'The resource owner denied the request.',
			state,
		});
	const code = randomToken(24);
	sb.auth.codes.set(code, {
		code,
		clientId: client.clientId,
		redirectUri,
		scopes,
		challenge: params.code_challenge,
		expiresAt: sb.now().getTime() + CODE_TTL_MS,
		used: false,
	});
	return redirect(redirectUri, { code, state });
}
