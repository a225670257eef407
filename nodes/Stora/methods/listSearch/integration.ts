// Integration resources' list searches (webhook endpoints).
import { searchListMethod } from './searchList';

export const searchWebhookEndpoints = searchListMethod({
	path: '/webhook_endpoints',
	label: (endpoint) => `${String(endpoint.name ?? endpoint.id)} (${String(endpoint.url ?? '')})`,
});
