// The launcher's exports, for its test; the launcher stays plain JavaScript so that any Node runs it.
export declare const NODE_MAJOR: number;
export declare function parseVersion(text: string): [number, number, number];
export declare function satisfies(version: string, range: string): boolean;
export declare function nodePackageName(platform?: string, arch?: string): string;
export declare function pickVersion(versions: string[], range: string): string | undefined;
