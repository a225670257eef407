/** Identity verifications: list (contact and status filters) and get. Read-only. */
import type { ResourceModule } from '../../core/types';
import { TIME_WINDOWS } from './shared';

export const identityVerificationsModule: ResourceModule = {
	register(api) {
		api.collection({
			name: 'identity_verifications',
			key: 'identity_verification',
			prefix: 'idver_',
			scope: 'identity_verification',
		});

		api.route(
			'GET',
			'/2025-09/identity_verifications',
			{ scopes: ['public.identity_verification:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'identity_verifications', ctx.sandbox.all('identity_verifications'), {
					sortBy: ['created_at', 'updated_at'],
					// Status values seen: processing, succeeded, failed; the enum is cut off in the docs, so any value is accepted.
					filters: { contact_id: { field: 'contact.id' }, status: { field: 'status' } },
					windows: TIME_WINDOWS,
				}),
		);

		api.route(
			'GET',
			'/2025-09/identity_verifications/:identity_verification_id',
			{ scopes: ['public.identity_verification:read'] },
			(ctx) =>
				ctx.sandbox.single(
					ctx,
					'identity_verifications',
					ctx.sandbox.mustGet('identity_verifications', ctx.params.identity_verification_id),
				),
		);
	},
};
