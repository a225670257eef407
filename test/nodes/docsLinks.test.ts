/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Where the editor's Docs links go. n8n links a node's Docs tab to its own `documentationUrl`, else to the codex's
 * primary documentation, else, for a community node, to the package's npm page; the credential dialog's docs link is
 * the credential's `documentationUrl`. All of them lead to the package's page (its README), not to Stora's API docs.
 * test/e2e/browser/hints.mjs follows the links in the editor.
 */
import fs from 'node:fs';
import path from 'node:path';

import { StoraApi } from '../../credentials/StoraApi.credentials';
import { StoraOAuth2Api } from '../../credentials/StoraOAuth2Api.credentials';
import { Stora } from '../../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../../nodes/StoraTrigger/StoraTrigger.node';

const ROOT = path.join(__dirname, '../..');
const packageName = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).name;
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe("the editor's Docs links", () => {
	it.each([
		['Stora', new Stora().description],
		['StoraTrigger', new StoraTrigger().description],
		['StoraPollTrigger', new StoraPollTrigger().description],
	])(
		"%s leaves its Docs tab to n8n's link for community nodes, the package's npm page",
		(file, description) => {
			const codex = JSON.parse(
				fs.readFileSync(path.join(ROOT, `nodes/${file}/${file}.node.json`), 'utf8'),
			);
			expect(description.documentationUrl).toBeUndefined();
			// n8n's loader reads the codex only when it has `resources` (else it drops the aliases too), so it stays, empty.
			expect(codex.resources).toEqual({});
			expect(codex.node).toBe(`${packageName}.${description.name}`);
		},
	);

	it.each([
		['Stora API', new StoraApi()],
		['Stora OAuth2 API', new StoraOAuth2Api()],
	])(
		"the %s credential links to the Credentials section of the package's npm page",
		(_, credential) => {
			expect(credential.documentationUrl).toBe(
				`https://www.npmjs.com/package/${packageName}#credentials`,
			);
			expect(readme).toMatch(/^## Credentials$/m);
		},
	);
});
