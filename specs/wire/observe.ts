/**
 * Judges an answer by the wire convention of its contract (every list a list, never null; no
 * member left out: WIRE-3) and records which list fields of the contract it had empty, as
 * `observed-empty` annotations of the test
 * (one per `Contract.path`). The self-test selftest/empty-lists.test.ts runs the specs of this
 * directory against the reference server and checks that every list field of every response
 * contract (contracts/lists.ts) is observed empty, or has a stated reason why it cannot be.
 */
import type { TestInfo } from '@playwright/test';
import { RESPONSE_CONTRACTS, emptyListPaths, listKey, wireProblems } from '../../contracts/lists.js';
import type { ApiResponse } from '../support/core/http.js';
import { describeExchange } from '../support/core/recorder.js';
import { breaks, expect, fieldRuleOf } from '../support/fixtures/test.js';

export const OBSERVED_EMPTY = 'observed-empty';

export type ContractName = keyof typeof RESPONSE_CONTRACTS & string;

/** Records the list fields of `contract` that `value` has empty; answers their keys. */
export function noteEmptyLists(testInfo: TestInfo, contract: ContractName, value: unknown): string[] {
  const schema = RESPONSE_CONTRACTS[contract];
  if (!schema) throw new Error(`no response contract ${contract} (contracts/lists.ts)`);
  const keys = emptyListPaths(schema, value).map((p) => listKey(contract, p));
  for (const description of keys) {
    if (!testInfo.annotations.some((a) => a.type === OBSERVED_EMPTY && a.description === description))
      testInfo.annotations.push({ type: OBSERVED_EMPTY, description });
  }
  return keys;
}

/**
 * `res` (or a value of it) keeps the wire convention by each of `contracts` (WIRE-3: every list
 * a list, never null or left out; no member left out instead of null) and its empty lists are
 * recorded. The types of the values are judged by the rules of the endpoints, not here.
 */
export function judgeLists(
  testInfo: TestInfo,
  res: ApiResponse,
  contracts: ContractName[],
  value: unknown = res.body,
  what = `${res.exchange.method} ${res.exchange.url}`,
): string[] {
  const keys: string[] = [];
  for (const c of contracts) {
    const schema = RESPONSE_CONTRACTS[c];
    const problems = wireProblems(schema, value);
    // A member with a rule of its own (a Company's primary_contact_id: COMPANY-3) is that rule's.
    const own = problems.map((p) => fieldRuleOf(schema, /^\$\.?([^:]*):/.exec(p)?.[1] ?? ''));
    const names = own.length && own.every(Boolean) ? breaks([...new Set(own as string[])]) : '';
    if (problems.length)
      expect(problems, `${what} answers a ${c}: absent fields are null and lists [], never null (WIRE-3)${names}\n${describeExchange(res.exchange)}`).toEqual(
        [],
      );
    keys.push(...noteEmptyLists(testInfo, c, value));
  }
  return keys;
}
