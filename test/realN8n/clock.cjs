// Preloaded into a test n8n (NODE_OPTIONS=--require) so a check can move the clock that `Date.now()` reads, which is
// the one the Stora Trigger's store of accepted events reads, instead of waiting minutes for it. On SIGUSR2 the offset
// becomes the number of seconds in the file STORA_E2E_CLOCK_FILE names, and the process writes that offset to the file
// `<name>.ack` once it applies: the check waits for the acknowledgement before its next request. n8n's timers, and
// everything else that reads the time another way, keep real time.
const fs = require('node:fs');

const file = process.env.STORA_E2E_CLOCK_FILE;
if (file) {
	const realNow = Date.now;
	let offsetMs = 0;
	process.on('SIGUSR2', () => {
		offsetMs = Number(fs.readFileSync(file, 'utf8')) * 1000;
		fs.writeFileSync(`${file}.ack`, String(offsetMs / 1000));
	});
	Date.now = () => realNow() + offsetMs;
}
