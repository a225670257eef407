/**
 * Contract templates (list) and contracts (list/get). GET a contract with `Accept: application/pdf` returns
 * its document, which only signed contracts have (406 `invalid_format` otherwise); the core renders the PDF.
 */
import { ApiError } from '../../core/errors';
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { daysAgo, later, refAt, TIME_WINDOWS } from './shared';

export const CONTRACT_STATUSES = ['pending', 'signed', 'voided', 'declined', 'deleted'];

/** `_links` carries the storefront page of the contract while it can be shown; `{}` otherwise. */
function renderContract(record: ApiRecord): ApiRecord {
	const showable = record.status === 'pending' || record.status === 'signed';
	return {
		...record,
		_links: showable
			? { 'sf:show_contract': { href: `/contracts/${record.id}`, title: 'Show contract' } }
			: {},
	};
}

export const contractsModule: ResourceModule = {
	register(api) {
		api.collection({
			name: 'contract_templates',
			key: 'contract_template',
			prefix: 'ctpl_',
			scope: 'contract_template',
		});
		api.collection({
			name: 'contracts',
			key: 'contract',
			prefix: 'ctr_',
			scope: 'contract',
			render: renderContract,
		});

		api.route(
			'GET',
			'/2025-09/contract_templates',
			{ scopes: ['public.contract_template:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'contract_templates', ctx.sandbox.all('contract_templates'), {
					sortBy: ['created_at', 'updated_at', 'name'],
					windows: TIME_WINDOWS,
				}),
		);

		api.route(
			'GET',
			'/2025-09/contracts',
			{ scopes: ['public.contract:read'], formats: ['text/csv'] },
			(ctx) =>
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

/** Demo seed: two contract templates and eight contracts in every status (tenancies are linked once billing has seeded). */
export function seedContracts(core: SandboxCore, contacts: ApiRecord[]): ApiRecord[] {
	const contractTemplates = ['Standard storage agreement', 'Business storage agreement'].map(
		(name, i) => {
			const at = daysAgo(core, 365 - i * 30, 9);
			return core.insert('contract_templates', {
				id: core.newId('ctpl_'),
				name,
				created_at: at,
				updated_at: at,
			});
		},
	);
	const out: ApiRecord[] = [];
	// [contact index, status, template index]
	const contracts: Array<[number, string, number]> = [
		[0, 'signed', 0],
		[1, 'signed', 1],
		[2, 'pending', 0],
		[3, 'voided', 0],
		[4, 'declined', 1],
		[5, 'deleted', 0],
		[15, 'signed', 0],
		[6, 'pending', 1],
	];
	contracts.forEach(([c, status, tpl], i) => {
		const sent = daysAgo(core, 140 - i * 12, 11);
		const signed = status === 'signed' ? later(sent, 20) : null;
		const record: ApiRecord = {
			id: core.newId('ctr_'),
			name: `${contractTemplates[tpl].name as string} – ${contacts[c].full_name as string}`,
			contact: refAt(contacts, c),
			contract_template: { id: contractTemplates[tpl].id },
			tenancy: null,
			status,
			sent_at: sent,
			signed_at: signed,
			created_at: sent,
			updated_at: signed ?? later(sent, status === 'pending' ? 0 : 30),
		};
		out.push(core.insert('contracts', record));
	});
	return out;
}
