/** Types of specs/support/core/write-whole.cjs. */
/** Writes a file whole or not at all: `write(tmp)` fills a temporary file beside it, then renamed over it. */
export declare function writeWhole(file: string, write: (tmp: string) => void): void;
