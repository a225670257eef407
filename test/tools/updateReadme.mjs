// Regenerates the README's operation table from the built node description (run `npm run build` first).
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';

import { operationsTable, replaceSection } from './operationsTable.ts';

const require = createRequire(import.meta.url);
const { Stora } = require('../../dist/nodes/Stora/Stora.node.js');

const readme = readFileSync('README.md', 'utf8');
const updated = replaceSection(readme, operationsTable(new Stora().description.properties));
writeFileSync('README.md', updated);
console.log(updated === readme ? 'README operation table already up to date' : 'README operation table updated');
