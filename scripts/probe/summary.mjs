/**
 * The one-page report's rows: every point the probe settles, grouped by what the package does with it (docs/
 * quality.md, "Unconfirmed behaviour"), each row with the verdicts, the evidence (the exceptions named, one example)
 * and what the package does about each verdict, in a user's words, naming the one place its reading is kept. Every
 * point, with its full evidence and the file that holds its reading, stays in probe-report.json.
 */

const LIST_POINT = /^GET \/2025-09\/([^?]+)\?([^=]+)$/;

/** The kind of a list parameter, by the name the node sends. */
function listKind(parameter) {
	if (parameter === 'page' || parameter === 'limit') return 'paging';
	if (parameter === 'sort_by' || parameter === 'sort_direction') return 'sort';
	if (parameter === 'expand') return 'expand';
	if (/_(after|before)$/.test(parameter)) return 'windows';
	return 'filters';
}

const listPoint = (kind) => (point) => {
	const match = LIST_POINT.exec(point.id);
	return Boolean(match) && listKind(match[2]) === kind;
};

/** What the package does, by verdict; `kept`: the one place its reading lives, in a user's words. */
const ROWS = [
	{
		label: 'List filters',
		match: listPoint('filters'),
		kept: "the node's filter checks",
		does: {
			honoured: 'Honoured: sent as set; the node still checks every record against it.',
			ignored:
				'Ignored: Get Many stops with "Stora did not apply the filter …" when a record that does not match comes back, never passing it on; use n8n\'s Filter node instead.',
			refused: "Refused: Stora's 422 is shown naming the node's parameter.",
		},
	},
	{
		label: 'Time windows (…_after, …_before)',
		match: listPoint('windows'),
		kept: "the node's filter checks and its list walk",
		does: {
			honoured:
				'Honoured: Return All and the Polling Trigger use created_after/updated_after as a cursor; Get Many checks each time (_after inclusive, _before exclusive, as the docs say).',
			ignored:
				'Ignored: a record outside the window stops Get Many ("Stora did not apply the filter …"); Return All and the Polling Trigger page by number and check each time themselves.',
			refused:
				"Refused: the 422 names the node's parameter; Return All and the Polling Trigger page by number without their cursor.",
		},
		flag: (points) => {
			const odd = points.filter(
				(point) =>
					(/_before$/.test(point.id) && /the bound is inclusive/.test(point.evidence)) ||
					(/_after$/.test(point.id) && /the bound is exclusive/.test(point.evidence)),
			);
			return odd.length
				? `Bound not as the docs say on ${short(odd)}: a record exactly at it stops Get Many; please report it.`
				: '';
		},
	},
	{
		label: 'Sort (sort_by, sort_direction)',
		match: listPoint('sort'),
		kept: 'the list walk',
		does: {
			honoured: 'Honoured: Return All and the Polling Trigger walk oldest first.',
			ignored:
				'Ignored: Get Many and Return All give the records in the order the list returns them (Return All pages by number); the Polling Trigger pages by number.',
			refused:
				"Refused: a 422 refusing only the node's own sort is passed over (paging by number); a sort the user chose shows the 422.",
		},
	},
	{
		label: 'Paging (page, limit)',
		match: listPoint('paging'),
		kept: 'the list walk',
		does: {
			honoured:
				'Honoured: Return All pages by number where it must (100 a page); Limit sets the page size.',
			ignored:
				'Ignored: page: where Return All pages by number it stops with "Stora\'s list did not end …" rather than loop; limit: Get Many outputs the page Stora sends.',
			refused: 'Refused: the 422 is shown; Return All cannot page such a list.',
		},
	},
	{
		label: 'Expand',
		match: listPoint('expand'),
		kept: 'the Expand option',
		does: {
			honoured: 'Honoured: the related record comes back in full.',
			ignored: 'Ignored: the reference stays {id}; the node passes on what Stora returns.',
			refused: "Refused: the 422 names the node's parameter.",
		},
	},
	{
		label: 'Filter value spelled differently (units status=overlock)',
		match: (point) => point.id === 'GET /2025-09/units?status=overlock',
		kept: "the node's table of filter values spelled differently",
		does: {
			honoured: 'Honoured: Status Overlock lists units whose status reads overlocked.',
			ignored:
				'Ignored: Get Many with Status Overlock stops ("Stora did not apply the filter …") when another unit comes back.',
			refused: "Refused: the 422 names the node's Status.",
		},
	},
	{
		label: 'Response fields against the docs',
		match: (point) => point.id.startsWith('fields of ') || point.id.startsWith('field name '),
		kept: null,
		does: {
			any: "Nothing changes: every field passes through as Stora returns it; only the editor's preview follows the docs.",
		},
	},
	{
		label: 'Error answers (401, 404, 422)',
		match: (point) => point.id.startsWith('error '),
		kept: "the node's error messages",
		does: {
			'as documented':
				"As documented: the node's errors show Stora's code, message and request ID.",
			differs: 'Differs: the error still shows the status and what Stora sent; please report it.',
		},
	},
	{
		label: 'Rate-limit headers',
		match: (point) => point.id.startsWith('header '),
		kept: "the rate-limit budget (the credential's Rate Limit fields)",
		does: {
			any: "The node paces by the credential's Rate Limit (default 10/s, 60/min), lower where RateLimit-Limit says, and waits for RateLimit-Reset (either form).",
		},
	},
	{
		label: 'Scopes the docs do not show',
		match: (point) => point.id.startsWith('scope '),
		kept: "the credential's Scope list",
		does: {
			exists: 'Exists: offered in the Scope field.',
			unknown: 'Unknown: still offered; a 403 names the scope an operation needs.',
		},
	},
	{
		label: 'Metadata filter key of 255 characters',
		match: (point) => point.id === 'metadata filter key of 255 characters',
		kept: "the Metadata filter's key limit",
		does: {
			accepted: 'Accepted: nothing changes (the node takes keys up to 255 characters).',
			refused:
				"Refused: the node's 255-character limit is too high for this API; please report it.",
			'no answer':
				"No answer: the node's 255-character limit is too high for this API; please report it.",
		},
	},
	{
		label: 'Idempotency-Key of 255 characters',
		match: (point) => point.id === 'idempotency key of 255 characters',
		kept: "the Idempotency Key option's limit",
		does: {
			accepted: 'Accepted: nothing changes (the node takes keys up to 255 characters).',
			refused: "Refused: the node's 255-character limit is too high; please report it.",
		},
	},
	{
		label: 'Idempotency replay, create status',
		match: (point) =>
			point.id === 'idempotency replay' || point.id === 'POST /2025-09/contacts status',
		kept: 'the retry rule (a POST is retried only with its Idempotency Key)',
		does: {
			replayed:
				'Replayed: a POST the node retries after a timeout returns the first record, not a second.',
			'not replayed': 'Not replayed: a retried POST may create a second record; please report it.',
			refused: 'Refused: a retried POST would show that error; please report it.',
			any: 'The create status is not read (any 2xx is success).',
		},
	},
	{
		label: 'Webhook signature (t, v1)',
		match: (point) => point.id.startsWith('webhook signature'),
		kept: "the Stora Trigger's signature check",
		does: {
			any: 'Nothing changes: the Stora Trigger accepts t in seconds or milliseconds and v1 as hex or base64.',
		},
	},
	{
		label: 'Webhook event types',
		match: (point) => point.id.startsWith('webhook event type'),
		kept: "the Stora Trigger's list of event types",
		does: {
			any: 'The Stora Trigger offers the 13 confirmed types; others go in Additional Event Types, checked by Stora on registration.',
		},
	},
	{
		label: 'Deleting a webhook endpoint',
		match: (point) => point.id === 'DELETE /2025-09/webhook_endpoints/{id}',
		kept: "the Stora Trigger's registration",
		does: {
			exists: 'Exists: deactivating a Stora Trigger removes its endpoint.',
			absent:
				'Absent: deactivating a Stora Trigger cannot remove its endpoint; remove it in BackOffice and please report it.',
		},
	},
	{
		label: "Token info's expires_in",
		match: (point) => point.id === 'token info expires_in',
		kept: null,
		does: { any: 'Not read by the node.' },
	},
];

/** `contacts?email, invoices?status +3` for a few points. */
function short(points, most = 5) {
	const names = points.map((point) => {
		const match = LIST_POINT.exec(point.id);
		return match
			? `${match[1]}?${match[2]}`
			: point.id.replace(
					/^(scope|webhook event types?|webhook signature|header|error|field name|fields of GET \/2025-09\/) ?/,
					'',
				);
	});
	return names.length > most
		? `${names.slice(0, most).join(', ')} +${names.length - most}`
		: names.join(', ');
}

const clip = (text, most) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);

/** A point's evidence without what every list point starts with (documented or not, what was sent, the counts). */
const gist = (point, most = 100) =>
	clip(
		point.evidence
			.replace(/^\((documented|not in the docs)\) /, '')
			.replace(/^.*; sent (\S+) anyway: /, 'sent $1 anyway: ')
			.replace(/^sent .*?: (?=\d+ record\(s\) without it)/, '')
			.replace(/^\d+ record\(s\) without it, [^:]*: /, ''),
		most,
	);

/**
 * Why points stayed unknown, in a few words, the commonest first; points that are no list parameter with their own
 * reason, those sharing it named together.
 */
function unknownReasons(points) {
	const reasons = new Map();
	for (const point of points) {
		const { evidence } = point;
		const own = !LIST_POINT.test(point.id);
		const reason = own
			? gist(point, 80)
			: /other clients wrote|count changed/.test(evidence)
				? 'other clients wrote meanwhile (a quieter time decides)'
				: /429/.test(evidence)
					? 'rate limited (a lower --pace decides)'
					: /token lacks|may not read/.test(evidence)
						? 'the token lacks the scope'
						: /not reached|stopped/.test(evidence)
							? 'the probe stopped'
							: 'too few telling records (a larger --sample decides)';
		if (!reasons.has(reason)) reasons.set(reason, { own, points: [] });
		reasons.get(reason).points.push(point);
	}
	return [...reasons]
		.sort((a, b) => b[1].points.length - a[1].points.length)
		.map(([reason, { own, points: these }]) =>
			own ? `${short(these, 3)}: ${reason}` : `${these.length} ${reason}`,
		)
		.join('; ');
}

const tally = (points) => {
	const counts = new Map();
	for (const { verdict } of points) counts.set(verdict, (counts.get(verdict) ?? 0) + 1);
	return counts;
};

/** The evidence of a row: each verdict but the commonest named with its points, one example, the unknowns' reasons. */
function evidenceOf(points, counts) {
	if (points.length === 1) return points[0].evidence;
	const [common] =
		[...counts].filter(([verdict]) => verdict !== 'unknown').sort((a, b) => b[1] - a[1])[0] ?? [];
	const parts = [];
	for (const [verdict] of counts) {
		if (verdict === common || verdict === 'unknown') continue;
		const these = points.filter((point) => point.verdict === verdict);
		parts.push(`${verdict}: ${short(these)} (${gist(these[0])})`);
	}
	const example = points.find((point) => point.verdict === common);
	if (example) parts.push(`${common}, e.g. ${short([example])}: ${gist(example)}`);
	const unknown = points.filter((point) => point.verdict === 'unknown');
	if (unknown.length) parts.push(`unknown: ${unknownReasons(unknown)}`);
	return parts.join('. ');
}

/**
 * The rows of the one-page report: `{point, verdict, evidence, does}` per group with points, then one row for the
 * points no group takes (those the probe cannot reach).
 */
export function summaryRows(points) {
	const rows = [];
	const taken = new Set();
	const notAsked = [];
	for (const row of ROWS) {
		const mine = points.filter((point) => !taken.has(point) && row.match(point));
		if (!mine.length) continue;
		for (const point of mine) taken.add(point);
		if (
			mine.every((point) => point.verdict === 'unknown' && /^not probed: /.test(point.evidence))
		) {
			notAsked.push({ name: row.label, why: mine[0].evidence, count: mine.length });
			continue;
		}
		const counts = tally(mine);
		const verdicts = [...counts]
			.map(([verdict, count]) => (mine.length === 1 ? verdict : `${verdict} ${count}`))
			.join(', ');
		const does = [...counts.keys()].map((verdict) => row.does[verdict]).filter(Boolean);
		if (row.does.any) does.push(row.does.any);
		const flag = row.flag?.(mine);
		if (flag) does.push(flag);
		if (!does.length) does.push('Unknown: the node keeps its reading.');
		if (row.kept) does.push(`Kept in one place: ${row.kept}.`);
		rows.push({
			point: row.label,
			verdict: verdicts,
			evidence: evidenceOf(mine, counts),
			does: [...new Set(does)].join(' '),
		});
	}
	for (const point of points)
		if (!taken.has(point)) notAsked.push({ name: point.id, why: point.evidence, count: 1 });
	if (notAsked.length) {
		const byWhy = new Map();
		for (const { name, why } of notAsked) {
			const reason = why.replace(/^not probed: /, '');
			if (!byWhy.has(reason)) byWhy.set(reason, []);
			byWhy.get(reason).push(name);
		}
		rows.push({
			point: 'Not asked in this run',
			verdict: `unknown ${notAsked.reduce((sum, entry) => sum + entry.count, 0)}`,
			evidence: [...byWhy]
				.map(([reason, names]) => `${names.join(', ')}: ${clip(reason, 70)}`)
				.join('; '),
			does: 'The node keeps its reading (docs/quality.md, "Unconfirmed behaviour").',
		});
	}
	return rows;
}
