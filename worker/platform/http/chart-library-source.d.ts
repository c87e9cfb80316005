/** The text of Chart.js's UMD build (chart-library-source.js, loaded by wrangler.toml's Text rule). */
declare const source: string;
export default source;
