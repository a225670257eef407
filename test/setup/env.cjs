// n8n-core writes an encryption key under N8N_USER_FOLDER on first use: keep it in a throw-away folder.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-stora-test-'));
}

// n8n-core logs node errors to the console; the tests assert on them instead.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
