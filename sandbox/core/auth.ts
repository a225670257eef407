/** Access tokens, OAuth clients, authorization codes and refresh tokens, all in memory. */
import { createHash, randomBytes } from 'node:crypto';

import type { Ref } from './types';

export interface AccessToken {
	token: string;
	kind: 'static' | 'oauth';
	scopes: string[];
	/** `tok_` for static tokens, `app_` for OAuth applications. */
	creator: Ref;
	clientId?: string;
	createdAt: number;
	/** Epoch ms; null = never expires. */
	expiresAt: number | null;
	revoked: boolean;
}

export interface OAuthClient {
	clientId: string;
	clientSecret: string;
	appId: string;
	name: string;
	redirectUris: string[];
	scopes: string[];
}

export interface AuthCode {
	code: string;
	clientId: string;
	redirectUri: string;
	scopes: string[];
	challenge?: string;
	expiresAt: number;
	used: boolean;
}

export interface RefreshToken {
	token: string;
	clientId: string;
	scopes: string[];
	revoked: boolean;
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** PKCE S256: unpadded base64url of SHA-256 of the verifier. */
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export class AuthStore {
	readonly tokens = new Map<string, AccessToken>();
	readonly clients = new Map<string, OAuthClient>();
	readonly codes = new Map<string, AuthCode>();
	readonly refreshTokens = new Map<string, RefreshToken>();

	clear() {
		this.tokens.clear();
		this.clients.clear();
		this.codes.clear();
		this.refreshTokens.clear();
	}

	issue(token: Omit<AccessToken, 'token' | 'revoked'> & { token?: string }): AccessToken {
		const stored: AccessToken = { ...token, token: token.token ?? randomToken(), revoked: false };
		this.tokens.set(stored.token, stored);
		return stored;
	}

	/** The token if it exists, is not revoked and has not expired at `now` (epoch ms). */
	active(token: string, now: number): AccessToken | undefined {
		const found = this.tokens.get(token);
		if (!found || found.revoked) return undefined;
		if (found.expiresAt !== null && found.expiresAt <= now) return undefined;
		return found;
	}
}
