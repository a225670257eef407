import type { INodeProperties } from 'n8n-workflow';

/**
 * What the Base URL field must hold: a scheme and a host (and port), nothing after it. The node adds the API version
 * itself, and nodes/Stora/methods/credentialCheck.ts says the same at connection-test time.
 */
const BASE_URL_PATTERN = '^\\s*[hH][tT][tT][pP][sS]?://[^/?#\\s]+/*\\s*$';

/**
 * The Base URL of both Stora credentials, and a notice under it while the value cannot work (no scheme, or a path
 * such as /2025-09): n8n has no validation for credential fields, but shows a property by a regex condition on another.
 */
export function baseUrlFields(description: string): INodeProperties[] {
	return [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://public-api.stora.co',
			description,
		},
		{
			displayName:
				'This Base URL will not work. Use the address of the Stora Public API with nothing after the host, for example https://public-api.stora.co (the node adds /2025-09 itself), or the sandbox\'s, for example http://127.0.0.1:4010.',
			name: 'baseUrlNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { regex: `^(?!${BASE_URL_PATTERN.slice(1)})` } }] } },
		},
	];
}
