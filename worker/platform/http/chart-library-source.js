// Chart.js's UMD build as text, by wrangler.toml's Text rule; typed by chart-library-source.d.ts beside it.
export { default } from '../../../node_modules/chart.js/dist/chart.umd.min.js';
