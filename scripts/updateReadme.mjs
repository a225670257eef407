// Regenerates the generated parts of the docs: the README's operation summary and docs/operations.md's table from the
// built node description (`npm run readme` builds first), and every measured-figures section of docs/quality.md from
// its file in docs/figures/ (test/helpers/figures.ts describes the mechanism: markers, one JSON per section, written
// by the runs that measure it).
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';

import {
	operationsSummary,
	operationsTable,
	replaceBetween,
	replaceSection,
	SUMMARY_END,
	SUMMARY_START,
} from './operationsTable.ts';
import { allFigures, renderAllFigureSections } from '../test/helpers/figures.ts';

const require = createRequire(import.meta.url);
const { Stora } = require('../dist/nodes/Stora/Stora.node.js');

const properties = new Stora().description.properties;
const update = (file, render) => {
	const text = readFileSync(file, 'utf8');
	const updated = render(text);
	writeFileSync(file, updated);
	console.log(`${file}: ${updated === text ? 'already up to date' : 'updated'}`);
};
// The front page's summary and first-run times; the whole table in docs/operations.md; the other measured figures in
// docs/quality.md (each figures section where its markers are).
update('README.md', (text) =>
	renderAllFigureSections(
		replaceBetween(text, SUMMARY_START, SUMMARY_END, operationsSummary(properties)),
	),
);
update('docs/operations.md', (text) => replaceSection(text, operationsTable(properties)));
update('docs/quality.md', (text) => renderAllFigureSections(text));
console.log(`figures sections: ${Object.keys(allFigures()).join(', ')}`);
