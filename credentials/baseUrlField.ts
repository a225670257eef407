import type { INodeProperties } from 'n8n-workflow';

/**
 * The Base URL of both Stora credentials. A wrong value (no scheme, a path such as /2025-09) is reported by the
 * connection test n8n runs when the credential is saved (nodes/Stora/methods/credentialCheck.ts). No display condition
 * checks it as it is typed: n8n evaluates a credential's display conditions on every read of the credential, a regex
 * one in a VM with a 250 ms limit that a busy n8n can overrun, failing the execution.
 */
export function baseUrlField(description: string): INodeProperties {
	return {
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: 'https://public-api.stora.co',
		description,
	};
}
