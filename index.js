// Package entry: the node and credential classes. n8n itself loads the files listed under "n8n" in package.json.
module.exports = {
	Stora: require('./dist/nodes/Stora/Stora.node.js').Stora,
	StoraTrigger: require('./dist/nodes/StoraTrigger/StoraTrigger.node.js').StoraTrigger,
	StoraApi: require('./dist/credentials/StoraApi.credentials.js').StoraApi,
	StoraOAuth2Api: require('./dist/credentials/StoraOAuth2Api.credentials.js').StoraOAuth2Api,
};
