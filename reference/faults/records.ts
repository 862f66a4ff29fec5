/**
 * Faults of fetches by id (WIRE-6): a fetch of an id that no record has is answered 2xx, as if
 * the record were there. Each post-processor turns the refusal of an unknown id (the id is well
 * formed, no record has it) into 200 with an empty record; ill-formed ids stay refused.
 */
import type { App } from '../app.js';
import { C, type Rec } from '../model.js';
import type { Fault, Presented, RouteFault } from './types.js';

/** The refusal of an id no record of `collection` has becomes 200 `{}` (a lookup that falls through to an empty row). */
const emptyRowFor =
  (collection: string, param: string) =>
  (res: Presented, ctx: { params: Record<string, string> }, app: App): Presented => {
    const raw = ctx.params[param] ?? '';
    const unknown = /^\d+$/.test(raw) && !app.store.collection<Rec>(collection).get(raw);
    return res.status >= 400 && res.status < 500 && unknown ? { status: 200, body: {} } : res;
  };

const fetchFault = (route: string, collection: string, param: string): RouteFault => ({ route, respond: emptyRowFor(collection, param) });

export const RECORDS_FAULTS: Fault[] = [
  {
    name: 'missing-company-200',
    rules: ['WIRE-6'],
    description: 'GET /companies/{id} of an id no Company has answers 200 with an empty record',
    routes: [fetchFault('GET /companies/{company_id}', C.companies, 'company_id')],
  },
  {
    name: 'missing-activity-200',
    rules: ['WIRE-6'],
    description: 'GET /activities/{id} of an id no Activity has answers 200 with an empty record',
    routes: [fetchFault('GET /activities/{activity_id}', C.activities, 'activity_id')],
  },
  {
    name: 'missing-file-200',
    rules: ['WIRE-6'],
    description: 'GET /{entity_type}/{entity_id}/files/{file_id} of a file id no file has answers 200 with empty metadata',
    routes: [fetchFault('GET /{entity_type}/{entity_id}/files/{file_id}', C.files, 'file_id')],
  },
];
