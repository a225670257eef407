// Build: TypeScript to dist/, then icons and codex files beside the compiled code. Tests never land in dist/.
const { src, dest, series } = require('gulp');
const { rmSync } = require('node:fs');
const { execFileSync } = require('node:child_process');

function clean(done) {
	rmSync('dist', { recursive: true, force: true });
	done();
}

function compile(done) {
	execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
		stdio: 'inherit',
	});
	done();
}

function copyIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

exports.build = series(clean, compile, copyIcons, copyCodex);
exports.default = exports.build;
