/** Types of specs/support/core/body-check.cjs (its expectation is core/recorder.ts's `Expectation`). */
type Expectation = { kind: 'id'; equals: string } | { kind: 'ids'; equals: readonly string[] } | { kind: 'schema'; name: string; schema: object };
/** What is wrong with `answers` (the parsed bodies, undefined where none came) against `expect`: none when they meet it. */
export declare function problemsOf(answers: unknown[], expect: Expectation): string[];
