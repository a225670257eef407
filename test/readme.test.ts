/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { StoraOAuth2Api } from '../credentials/StoraOAuth2Api.credentials';
import { Stora } from '../nodes/Stora/Stora.node';
import { DEFAULT_SCOPES } from '../nodes/Stora/helpers/constants';
import { operationsTable, replaceSection } from './tools/operationsTable';

describe('README and descriptions stay in sync', () => {
	it('has the operation table generated from the node description (run `npm run readme` to fix)', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		const table = operationsTable(new Stora().description.properties as never);
		expect(table.split('\n').length).toBeGreaterThan(3);
		expect(replaceSection(readme, table)).toBe(readme);
	});

	it('asks OAuth2 by default for the scopes the docs show (DEFAULT_SCOPES; the optional ones are described)', () => {
		const scope = new StoraOAuth2Api().properties.find((property) => property.name === 'scope');
		expect(String(scope?.default).split(' ').sort()).toEqual([...DEFAULT_SCOPES].sort());
	});
});
