/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test helper under test/, never published */
/**
 * Prints a figure a test measured (items, cells, seconds) as one `figures:` line on stdout, so a run's log holds the
 * numbers the README's reliability section summarises. Not an assertion: the tests assert; this only reports.
 */
export function printFigure(line: string): void {
	process.stdout.write(`figures: ${line}\n`);
}
