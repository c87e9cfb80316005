/** The one-line reason `version` cannot run the project, or undefined when `range` admits it. */
export function unsupportedNode(version: string, range: string): string | undefined;
