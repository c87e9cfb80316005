import pkg from '../../package.json';

/** The deployed version, reported by /api/health and the OpenAPI document. */
export const SERVICE_VERSION: string = pkg.version;
