/**
 * Images: GET /2025-09/images/:image_token/:filename answers 302 with a temporary pre-signed URL on the core's
 * separate files host. The token is `<base64url JSON {id, name[, variant]}>--<40 hex HMAC>`; a forged token, an
 * unknown record, a record without a default image or a wrong file name give 404. No bearer token is needed.
 */
import { notFound } from '../../core/errors';
import type { ResourceModule } from '../../core/types';
import { V, obj, str } from '../billing/shared';
import { imageVariantSize, png, readImageToken } from './imageFiles';

export const images: ResourceModule = {
	register(api) {
		api.route('GET', `${V}/images/:image_token/:filename`, { scopes: [], public: true }, (ctx) => {
			const core = ctx.sandbox;
			const { image_token: token, filename } = ctx.params;
			const payload = readImageToken(token);
			const record = payload ? core.find(payload.id) : undefined;
			const stored = str(obj(obj(record?.images).default).original);
			if (
				!payload ||
				!record ||
				!stored ||
				decodeURIComponent(stored.split('/').pop() ?? '') !== filename
			) {
				throw notFound('Image');
			}
			const bytes = png(
				`${payload.id}:${payload.variant ?? 'original'}`,
				imageVariantSize(payload.variant),
			);
			return {
				status: 302,
				headers: {
					Location: core.presign(bytes, 'image/png', filename),
					'Cache-Control': 'no-store',
				},
			};
		});
	},
};
