// "Package in n8n": the packed package as n8n loads it.
import fs from 'node:fs';
import path from 'node:path';

import { REPO } from '../../realN8n/n8n.mjs';
import { STORA } from '../../realN8n/workflow.mjs';
import { PACKAGE_PREFIX } from '../workflow.mjs';

export async function packageChecks({ n8n, check, assert }) {
	console.log('\nPackage in n8n');
	await check(
		'n8n loads the packed package: every node in package.json (Stora, Stora Trigger), its codex, both credential types and the icon',
		async () => {
			const nodeTypes = await n8n.request('GET', '/types/nodes.json');
			const stora = nodeTypes.filter((t) => t.name === STORA);
			assert(
				stora.length === 1,
				`node type ${STORA} not registered; server log:\n${n8n.logTail(20)}`,
			);
			assert(
				stora[0].usableAsTool || nodeTypes.some((t) => t.name === `${STORA}Tool`),
				'the node is not usable as an AI tool',
			);
			// n8n drops a codex it cannot read (one without `resources`, say), and the node creator its aliases with it.
			assert(
				stora[0].codex?.alias?.includes('Stora Invoice'),
				`n8n did not read nodes/Stora/Stora.node.json: the node creator will not find "Stora Invoice"`,
			);
			const declared = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).n8n
				.nodes.length;
			const ours = nodeTypes.filter(
				(t) => t.name.startsWith(`${PACKAGE_PREFIX}.`) && !t.name.endsWith('Tool'),
			);
			assert(
				ours.length === declared,
				`package.json declares ${declared} nodes, n8n registered ${ours.map((t) => t.name).join(', ')}`,
			);
			const credentialTypes = (await n8n.request('GET', '/types/credentials.json')).map(
				(c) => c.name,
			);
			for (const name of ['storaApi', 'storaOAuth2Api'])
				assert(credentialTypes.includes(name), `credential type ${name} not registered`);
			const icon = await fetch(`${n8n.base}/icons/n8n-nodes-stora/dist/icons/stora.svg`, {
				headers: { cookie: n8n.cookie },
			});
			assert(
				icon.ok && (await icon.text()).includes('<svg'),
				`node icon not served (${icon.status})`,
			);
			const logText = fs.readFileSync(n8n.logFile, 'utf8');
			assert(
				!/error.*n8n-nodes-stora|n8n-nodes-stora.*(error|failed)/i.test(logText),
				`n8n logged an error about the package:\n${logText
					.split('\n')
					.filter((l) => /stora/i.test(l))
					.join('\n')}`,
			);
		},
	);
}
