/** What a runner did with its zygotes (scripts/prefork.cjs). */
export interface PreforkReport {
  started: number;
  handedOver: number;
  forkedByPlaywright: number;
  pids: number[];
  reason?: string;
}
export function prefork(count: number): PreforkReport;
export function wholeSuiteRun(argv: string[]): boolean;
export function workerEntry(): string | undefined;
