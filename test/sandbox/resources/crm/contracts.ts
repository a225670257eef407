/**
 * Contract templates (list) and contracts (list/get). GET a contract with `Accept: application/pdf` returns
 * its document, which only signed contracts have (406 `invalid_format` otherwise); the core renders the PDF.
 */
import { ApiError } from '../../core/errors';
import type { ApiRecord, ResourceModule } from '../../core/types';
import { TIME_WINDOWS } from './shared';

export const CONTRACT_STATUSES = ['pending', 'signed', 'voided', 'declined', 'deleted'];

/** `_links` carries the storefront page of the contract while it can be shown; `{}` otherwise. */
function renderContract(record: ApiRecord): ApiRecord {
	const showable = record.status === 'pending' || record.status === 'signed';
	return {
		...record,
		_links: showable ? { 'sf:show_contract': { href: `/contracts/${record.id}`, title: 'Show contract' } } : {},
	};
}

export const contractsModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'contract_templates', key: 'contract_template', prefix: 'ctpl_', scope: 'contract_template' });
		api.collection({ name: 'contracts', key: 'contract', prefix: 'ctr_', scope: 'contract', render: renderContract });

		api.route('GET', '/2025-09/contract_templates', { scopes: ['public.contract_template:read'], formats: ['text/csv'] }, (ctx) =>
			ctx.sandbox.list(ctx, 'contract_templates', ctx.sandbox.all('contract_templates'), {
				sortBy: ['created_at', 'updated_at', 'name'],
				windows: TIME_WINDOWS,
			}),
		);

		api.route('GET', '/2025-09/contracts', { scopes: ['public.contract:read'], formats: ['text/csv'] }, (ctx) =>
			ctx.sandbox.list(ctx, 'contracts', ctx.sandbox.all('contracts'), {
				sortBy: ['created_at', 'updated_at', 'sent_at', 'signed_at'],
				filters: {
					status: { field: 'status', values: CONTRACT_STATUSES },
					contact_id: { field: 'contact.id' },
					tenancy_id: { field: 'tenancy.id' },
					contract_template_id: { field: 'contract_template.id' },
				},
				windows: { ...TIME_WINDOWS, sent: 'sent_at', signed: 'signed_at' },
			}),
		);

		api.route(
			'GET',
			'/2025-09/contracts/:contract_id',
			{ scopes: ['public.contract:read'], formats: ['application/pdf'] },
			(ctx) => {
				const core = ctx.sandbox;
				const contract = core.mustGet('contracts', ctx.params.contract_id);
				if (ctx.format === 'application/pdf' && contract.status !== 'signed') {
					throw new ApiError(
						406,
						'invalid_format',
						`Contract ${contract.id} is ${String(contract.status)}; only signed contracts have a PDF document`,
					);
				}
				return core.single(ctx, 'contracts', contract);
			},
		);
	},
};
