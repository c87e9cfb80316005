// The mongodb driver imports `process`; inside the test pool that must be workerd's global.
module.exports = globalThis.process;
