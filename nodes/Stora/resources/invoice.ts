import {
	binaryPropertyName,
	dateWindows,
	expandOption,
	filtersCollection,
	idListFilter,
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

const getMany = showFor('invoice', ['getAll']);
const EXPAND = ['contact', 'site', 'subscription', 'tenancy'];

/**
 * A filter on comma-separated record IDs, sent as-is (e.g. `contact_id=con_1,con_2`). Each ID is checked against the
 * API's prefix before any request, so a site ID pasted into the contact filter fails instead of matching nothing.
 */
const properties: ResourceDefinition['properties'] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Download PDF',
				value: 'downloadPdf',
				description:
					'Download an invoice as a PDF document. Returns one item whose binary field holds the file (named after the invoice number).',
				action: 'Download an invoice PDF',
				routing: { request: PDF_DOWNLOAD_REQUEST },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an invoice (a billing document for a subscription or an ad hoc charge) by ID. Returns its number, status, collection status, amounts due and paid, dates and line items.',
				action: 'Get an invoice',
				routing: { request: { method: 'GET' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List invoices, newest first, filtered by contact, site, subscription, tenancy, status, type, collection status or creation, update and due dates. Returns one item per invoice.',
				action: 'Get many invoices',
				routing: { request: { method: 'GET', url: '/invoices' } },
			},
		],
		default: 'getAll',
	},
	resourceLocator({
		name: 'invoiceId',
		displayName: 'Invoice',
		prefix: 'inv_',
		searchListMethod: 'searchInvoices',
		url: '/invoices/{id}',
		displayOptions: showFor('invoice', ['downloadPdf', 'get']),
	}),
	binaryPropertyName(showFor('invoice', ['downloadPdf'])),
	optionsCollection(showFor('invoice', ['get']), [expandOption(EXPAND)]),
	...returnAllAndLimit(getMany),
	filtersCollection(getMany, [
		multiValueFilter('Collection Status', 'collectionStatus', 'collection_status', [
			'pending',
			'overdue',
			'collected',
			'not_collected',
		]),
		idListFilter({ displayName: 'Contact IDs', name: 'contactIds', queryName: 'contact_id', prefix: 'con_' }),
		...dateWindows(['created', 'due']),
		idListFilter({ displayName: 'Site Names or IDs', name: 'siteIds', queryName: 'site_id', prefix: 'site_', loadOptionsMethod: 'getSites' }),
		multiValueFilter('Status', 'status', 'status', ['draft', 'deleted', 'open', 'paid', 'uncollectible', 'void']),
		idListFilter({ displayName: 'Subscription IDs', name: 'subscriptionIds', queryName: 'subscription_id', prefix: 'sub_' }),
		idListFilter({ displayName: 'Tenancy IDs', name: 'tenancyIds', queryName: 'tenancy_id', prefix: 'ten_' }),
		multiValueFilter('Type', 'type', 'type', ['subscription', 'ad_hoc', 'deposit']),
		...dateWindows(['updated']),
	]),
	optionsCollection(getMany, [expandOption(EXPAND), ...sortOptions(['created_at', 'due_date', 'updated_at'])]),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('invoice', ['get', 'getAll']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const invoiceResource: ResourceDefinition = {
	option: { name: 'Invoice', value: 'invoice' },
	properties,
	simplifiedFields: [
		'id',
		'number',
		'status',
		'collection_status',
		'type',
		'contact',
		'total',
		'amount_due',
		'due_date',
		'created_at',
	],
};
