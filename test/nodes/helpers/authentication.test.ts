/**
 * helpers/authentication.ts, the Authentication choice shared by the three nodes: each credential shown for its own
 * value, and the credential type the transport calls with for each value.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import {
	authenticationProperty,
	credentialTypeForAuthentication,
} from '../../../nodes/Stora/helpers/authentication';
import { Stora } from '../../../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../../../nodes/StoraTrigger/StoraTrigger.node';

const descriptions: INodeTypeDescription[] = [
	new Stora().description,
	new StoraTrigger().description,
	new StoraPollTrigger().description,
];

describe('authentication', () => {
	it('calls with the credential each Authentication value shows, the access token by default', () => {
		const values = (authenticationProperty.options as Array<{ value: string }>).map(
			(option) => option.value,
		);
		for (const description of descriptions) {
			const property = description.properties.find(
				(candidate) => candidate.name === 'authentication',
			) as INodeProperties;
			expect(property).toEqual(authenticationProperty);
			for (const value of values) {
				const shown = (description.credentials ?? []).filter((credential) =>
					(credential.displayOptions?.show?.authentication ?? []).includes(value),
				);
				expect(shown.map((credential) => credential.name)).toEqual([
					credentialTypeForAuthentication(value),
				]);
			}
		}
		expect(credentialTypeForAuthentication(authenticationProperty.default)).toBe('storaApi');
		expect(credentialTypeForAuthentication('oAuth2')).toBe('storaOAuth2Api');
		expect(credentialTypeForAuthentication(undefined)).toBe('storaApi');
	});
});
