// Regenerates the README's generated parts: the operation table from the built node description (run
// `npm run build` first), and every measured-figures section from its file in docs/figures/ (test/helpers/figures.ts
// describes the mechanism: markers in the README, one JSON per section, written by the runs that measure it).
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';

import { operationsTable, replaceSection } from './operationsTable.ts';
import { allFigures, renderAllFigureSections } from '../test/helpers/figures.ts';

const require = createRequire(import.meta.url);
const { Stora } = require('../dist/nodes/Stora/Stora.node.js');

const readme = readFileSync('README.md', 'utf8');
const withOperations = replaceSection(readme, operationsTable(new Stora().description.properties));
const updated = renderAllFigureSections(withOperations);
writeFileSync('README.md', updated);
console.log(withOperations === readme ? 'README operation table already up to date' : 'README operation table updated');
const sections = Object.keys(allFigures()).join(', ');
console.log(updated === withOperations ? `README figures (${sections}) already up to date` : `README figures (${sections}) updated`);
