/** The text of Swagger UI's browser bundle (swagger-ui-dist, loaded by wrangler.toml's Text rule). */
export declare const RENDERER_SCRIPT: string;
/** The text of Swagger UI's stylesheet (swagger-ui-dist, loaded by wrangler.toml's Text rule). */
export declare const RENDERER_STYLES: string;
