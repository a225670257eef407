/** Identity verifications: list (contact and status filters) and get. Read-only. */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { daysAgo, later, refAt, TIME_WINDOWS } from './shared';

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

/** Identity verifications of contacts 0..7: [status, error_code]. */
export const VERIFICATIONS: Array<[string, string | null]> = [
	['succeeded', null],
	['succeeded', null],
	['failed', 'document_expired'],
	['succeeded', null],
	['processing', null],
	['failed', 'selfie_mismatch'],
	['succeeded', null],
	['processing', null],
];

/** Demo seed: verifications of contacts 0..7 in every status. */
export function seedIdentityVerifications(core: SandboxCore, contacts: ApiRecord[]) {
	VERIFICATIONS.forEach(([status, errorCode], i) => {
		const created = daysAgo(core, 150 - i * 10, 10);
		core.insert('identity_verifications', {
			id: core.newId('idver_'),
			contact: refAt(contacts, i),
			status,
			error_code: errorCode,
			created_at: created,
			updated_at: status === 'processing' ? created : later(created, 1),
		});
	});
}
