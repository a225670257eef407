// The smallest declarative node that sends case 3d's request (POST /2025-09/contacts with an email and a full name
// from the item), as n8n-nodes-starter's example builds one: what n8n's RoutingNode costs per item for any
// declarative node, beside the Stora node and the HTTP Request node in one run. Plain JavaScript, so it needs no build.
class Reference {
	constructor() {
		this.description = {
			displayName: 'Bench Reference',
			name: 'reference',
			group: ['transform'],
			version: 1,
			description: 'A minimal declarative node for the benchmark',
			defaults: { name: 'Bench Reference' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'httpBearerAuth', required: true }],
			requestDefaults: {
				baseURL: '={{ $parameter.baseUrl }}',
				headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			},
			properties: [
				{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
				{
					displayName: 'Resource',
					name: 'resource',
					type: 'options',
					noDataExpression: true,
					options: [{ name: 'Contact', value: 'contact' }],
					default: 'contact',
				},
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					displayOptions: { show: { resource: ['contact'] } },
					options: [
						{
							name: 'Create',
							value: 'create',
							action: 'Create a contact',
							routing: { request: { method: 'POST', url: '/2025-09/contacts' } },
						},
					],
					default: 'create',
				},
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					default: '',
					displayOptions: { show: { resource: ['contact'], operation: ['create'] } },
					routing: { send: { type: 'body', property: 'email' } },
				},
				{
					displayName: 'Additional Fields',
					name: 'additionalFields',
					type: 'collection',
					default: {},
					displayOptions: { show: { resource: ['contact'], operation: ['create'] } },
					options: [
						{
							displayName: 'Full Name',
							name: 'fullName',
							type: 'string',
							default: '',
							routing: { send: { type: 'body', property: 'full_name' } },
						},
					],
				},
			],
		};
	}
}

module.exports = { Reference };
