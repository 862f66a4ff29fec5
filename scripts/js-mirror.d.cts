/** Types of scripts/js-mirror.cjs. */
export interface Mirror { root: string; dir: string }
/** The environment variable that tells a worker where the mirror is. */
export declare const ENV: string;
/** Brings the mirror of the suite at `root` up to date; what the workers need, and how many files it compiled. */
export declare function buildMirror(root: string, dir?: string): Promise<Mirror & { compiled: number }>;
/** Where the mirror of the suite at `root` (a real path) is kept. */
export declare function mirrorDir(root: string): string;
/** Removes the mirrors in `parent` (beside `keep`) of checkouts that no longer exist; the directories removed. */
export declare function pruneMirrors(parent: string, keep: string): string[];
/** In a worker: compiles again, synchronously, what changed since the runner built the mirror. */
export declare function refreshMirror(mirror: Mirror): Mirror & { compiled: number };
/** What a worker imports instead of `specifier`: the mirror of a `.ts` file of the suite, else `specifier`. */
export declare function mirrorUrl(specifier: unknown, mirror: Mirror | undefined): unknown;
/** The `.ts` files of the suite that are mirrored (relative paths, sorted). */
export declare function sources(root: string): string[];
/** esbuild: the one the suite depends on, else the one tsx brings; throws when neither is installed. */
export declare function loadEsbuild(): typeof import('esbuild');
