// Chromium signed in to the n8n editor, for the browser checks of the run (../browser.mjs) and for a file of them
// run alone (buildWorkflow.mjs).
import fs from 'node:fs';
import path from 'node:path';

import { launchChromium, signIn, watchConsole } from '../../realN8n/chromium.mjs';
import { log } from '../../realN8n/n8n.mjs';

/**
 * Starts Chromium and signs in to `n8n`; returns { chromium, page, check, shot, consoleLog }, or nothing when either
 * failed (reported as a failed check). Its `check` is `baseCheck` with, on failure, a screenshot of every open page,
 * since they show what the browser saw; `shot(page, name, locator?)` saves one into `screenshots`.
 */
export async function chromiumSession({ n8n, check: baseCheck, screenshots, cleanups }) {
	fs.mkdirSync(screenshots, { recursive: true });
	const shot = async (page, name, locator) => {
		const file = path.join(screenshots, `${name}.png`);
		await (locator ?? page).screenshot({ path: file });
		log(`screenshot ${path.relative(process.cwd(), file)}`);
	};
	let chromium;
	let failures = 0;
	const check = async (name, fn) =>
		await baseCheck(name, async () => {
			try {
				await fn();
			} catch (error) {
				failures += 1;
				for (const [i, p] of (chromium?.context.pages() ?? []).entries()) {
					await p
						.screenshot({ path: path.join(screenshots, `failure-${failures}-${i}.png`) })
						.catch(() => {});
				}
				throw new Error(
					`${error.message}\n(screenshots: ${path.join(screenshots, `failure-${failures}-*.png`)})`,
				);
			}
		});
	try {
		chromium = await launchChromium();
	} catch (error) {
		await check('Chromium starts', () => {
			throw error;
		});
		return undefined;
	}
	cleanups.push(() => chromium.stop());
	const consoleLog = watchConsole(chromium.context);
	const page = await chromium.context.newPage();
	page.setDefaultTimeout(30_000);

	let signedIn = false;
	await check('signs in to the n8n editor', async () => {
		await signIn(page, n8n);
		signedIn = true;
	});
	return signedIn ? { chromium, page, check, shot, consoleLog } : undefined;
}

/** The last browser check: nothing the editor logged as an error but what chromium.mjs lists with its reason. */
export async function consoleCheck({ check, consoleLog, assert }) {
	await check('no console errors in the editor', async () => {
		for (const message of consoleLog.ignored)
			log(
				`ignored console error (expected, listed with its reason in test/realN8n/chromium.mjs): ${message.slice(0, 200)}`,
			);
		assert(
			consoleLog.errors.length === 0,
			`console errors:\n${consoleLog.errors.slice(0, 20).join('\n')}`,
		);
	});
}
