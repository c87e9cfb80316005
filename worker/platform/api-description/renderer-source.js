// Swagger UI's browser bundle and stylesheet as text, by wrangler.toml's Text rule; typed by renderer-source.d.ts beside it.

export { default as RENDERER_STYLES } from '../../../node_modules/swagger-ui-dist/swagger-ui.css';
export { default as RENDERER_SCRIPT } from '../../../node_modules/swagger-ui-dist/swagger-ui-bundle.js';
