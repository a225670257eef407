/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling under test/, never published */
/**
 * The output schemas n8n's editor asks for (`GET /schemas/<node type>/<version>/<resource>/<operation>.json`, served
 * from `__schema__/` beside the compiled node) to preview a node's output before it ran, generated from the nodes'
 * real output: each operation of the Stora node runs in n8n's engine against the sandbox (scripts/outputRuns.ts), and
 * the schema of one output item is inferred from all the items it returned (scripts/schemaInference.ts). This file
 * names the schema files and reads and writes them. `npm run schemas` writes the files (scripts/updateOutputSchemas.mjs);
 * test/nodes/outputSchemas.test.ts fails while they differ from what this produces.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { Stora } from '../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../nodes/StoraTrigger/StoraTrigger.node';
import { nodeOperations } from '../test/helpers/operations';
import type { StartedSandbox } from '../sandbox';
import { operationOutput, pollOutput, triggerOutput } from './outputRuns';
import type { JsonSchema } from './schemaInference';

export { schemaOf, schemasOf, typeOf, type JsonSchema } from './schemaInference';
export { operationOutput } from './outputRuns';

export const ROOT = join(__dirname, '..');

// ------------------------------------------------------------------------------------------------ the files

/** n8n pads a node version to three parts (1.1 → 1.1.0) to name its schema folder or file. */
const padded = (version: number) =>
	String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');

/**
 * Where n8n's server (`resolveOutputSchemaPath`) looks, relative to the repository: `__schema__/` beside the node,
 * `v<version>/<resource>/<operation>.json` for a node with both, `v<version>.json` for a node without (the triggers:
 * the editor asks their schema for the input panel of the node after them).
 */
export function schemaFile(
	node: string,
	version: number,
	resource?: string,
	operation?: string,
): string {
	const name =
		resource && operation ? `v${padded(version)}/${resource}/${operation}` : `v${padded(version)}`;
	return `nodes/${node}/__schema__/${name}.json`;
}

const versionsOf = (version: number | number[]) => [version].flat();

/** Every output the package's nodes have, by its schema file, with the items its runs returned. */
export async function generateOutputs(
	sandbox: StartedSandbox,
): Promise<Map<string, IDataObject[]>> {
	const outputs = new Map<string, IDataObject[]>();
	for (const version of versionsOf(new Stora().description.version)) {
		for (const { resource, operation } of nodeOperations()) {
			outputs.set(
				schemaFile('Stora', version, resource, operation),
				await operationOutput(sandbox, resource, operation),
			);
		}
	}
	// Version 1.1 of the Stora Trigger outputs what version 1 does (it only answers a delivery faster).
	const delivered = await triggerOutput(sandbox);
	for (const version of versionsOf(new StoraTrigger().description.version)) {
		outputs.set(schemaFile('StoraTrigger', version), delivered);
	}
	for (const version of versionsOf(new StoraPollTrigger().description.version)) {
		outputs.set(schemaFile('StoraPollTrigger', version), await pollOutput(sandbox));
	}
	return outputs;
}

/** A schema file's text: tab-indented JSON, as the repository's other files. */
export const fileText = (schema: JsonSchema) => `${JSON.stringify(schema, null, '\t')}\n`;

/** The schema files in the repository now, by path. */
export function committedSchemas(): Map<string, string> {
	const files = new Map<string, string>();
	for (const node of readdirSync(join(ROOT, 'nodes'))) {
		const dir = join(ROOT, 'nodes', node, '__schema__');
		if (!existsSync(dir)) continue;
		for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) =>
			name.endsWith('.json'),
		)) {
			files.set(
				`nodes/${node}/__schema__/${file.split(sep).join('/')}`,
				readFileSync(join(dir, file), 'utf8'),
			);
		}
	}
	return files;
}

/** Replaces every `__schema__` folder under nodes/ with `schemas` (a removed operation's file goes too). */
export function writeSchemas(schemas: Map<string, JsonSchema>): void {
	for (const node of readdirSync(join(ROOT, 'nodes')))
		rmSync(join(ROOT, 'nodes', node, '__schema__'), { recursive: true, force: true });
	for (const [file, schema] of schemas) {
		mkdirSync(dirname(join(ROOT, file)), { recursive: true });
		writeFileSync(join(ROOT, file), fileText(schema));
	}
}
