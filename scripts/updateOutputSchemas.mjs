// `npm run schemas`: writes the output schemas the package ships for n8n's editor (nodes/<node>/__schema__/). The
// generator (scripts/outputSchemas.ts) runs the nodes in n8n's engine against the sandbox, TypeScript that jest
// compiles, so this runs test/nodes/outputSchemas.test.ts with STORA_SCHEMAS=write (as STORA_FIGURES=write does for
// the README's figures), on Node 24. The test then checks the files it wrote.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

import { ensureToolchain, REPO } from './toolchain.mjs';

const { nodeBin, env } = await ensureToolchain();
const jest = createRequire(import.meta.url).resolve('jest/bin/jest');
const child = spawn(nodeBin, [jest, 'test/nodes/outputSchemas.test.ts'], {
	cwd: REPO,
	env: { ...env, STORA_SCHEMAS: 'write' },
	stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
