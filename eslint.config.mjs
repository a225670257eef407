import { config } from '@n8n/node-cli/eslint';

// n8n's default configuration, with one exception until the package is published: the author's name and e-mail
// and the homepage must be true values of whoever publishes it, and we have none yet. The publisher runs
// `npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>`, which fills them in
// package.json, sets "strict": true under "n8n" and puts n8n's default configuration here (CONTRIBUTING.md,
// "Publishing"); CI rehearses exactly that in a scratch clone (.ci/run).
export default [
	...config,
	{
		files: ['package.json'],
		rules: {
			'@n8n/community-nodes/valid-author': 'off',
			'@n8n/community-nodes/require-homepage': 'off',
			'n8n-nodes-base/community-package-json-author-missing': 'off',
		},
	},
];
