import {
	binaryPropertyName,
	dateWindows,
	filtersCollection,
	multiValueFilter,
	optionsCollection,
	outputFormat,
	PDF_DOWNLOAD_REQUEST,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	sortOptions,
	type ResourceDefinition,
} from '../shared/descriptions';
import { crmExpand } from './deal';

const STATUSES = ['pending', 'signed', 'voided', 'declined', 'deleted'];
const getMany = showFor('contract', ['getAll']);

const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contract'] } },
		options: [
			{
				name: 'Download PDF',
				value: 'downloadPdf',
				description:
					'Download the signed document of a contract as a PDF file (binary data). Only signed contracts have one; others are refused.',
				action: 'Download the PDF of a contract',
				routing: { request: PDF_DOWNLOAD_REQUEST },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a contract (a document generated from a contract template for a contact) by ID, with its status: pending, signed, voided, declined or deleted',
				action: 'Get a contract',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List contracts, optionally filtered by status, contact, tenancy, template or dates',
				action: 'Get many contracts',
				routing: { request: { method: 'GET', url: '/contracts' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'contractId',
		displayName: 'Contract',
		prefix: 'ctr_',
		searchListMethod: 'searchContracts',
		url: '/contracts/{id}',
		displayOptions: showFor('contract', ['downloadPdf', 'get']),
	}),
	binaryPropertyName(showFor('contract', ['downloadPdf'])),
	optionsCollection(showFor('contract', ['get']), [crmExpand(['contact', 'contract_template', 'tenancy'])]),

	// Get Many
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		{
			displayName: 'Contact IDs',
			name: 'contactId',
			type: 'string',
			default: '',
			placeholder: 'con_a1b2c3,con_d4e5f6',
			description: 'Only contracts of these contacts (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'contact_id' } },
		},
		{
			displayName: 'Contract Template Names or IDs',
			name: 'contractTemplateId',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getContractTemplates' },
			default: [],
			description:
				'Only contracts generated from these templates. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			routing: {
				send: {
					type: 'query',
					property: 'contract_template_id',
					value: '={{ ($value ?? []).length ? [].concat($value).join(",") : undefined }}',
				},
			},
		},
		...dateWindows(['created', 'sent', 'signed', 'updated']),
		multiValueFilter('Status', 'status', 'status', STATUSES),
		{
			displayName: 'Tenancy IDs',
			name: 'tenancyId',
			type: 'string',
			default: '',
			placeholder: 'ten_a1b2c3,ten_d4e5f6',
			description: 'Only contracts of these tenancies (comma-separated IDs)',
			routing: { send: { type: 'query', property: 'tenancy_id' } },
		},
	]),
	optionsCollection(getMany, [
		crmExpand(['contact', 'contract_template', 'tenancy']),
		...sortOptions(['created_at', 'sent_at', 'signed_at', 'updated_at']),
	]),
	...outputFormat(getMany),
	simplifyToggle(showFor('contract', ['get', 'getAll'])),
];

export const contractResource: ResourceDefinition = {
	option: { name: 'Contract', value: 'contract' },
	properties,
	simplifiedFields: ['id', 'name', 'status', 'contact', 'contract_template', 'tenancy', 'sent_at', 'signed_at'],
};
