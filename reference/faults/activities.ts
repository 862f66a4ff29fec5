/** Faults of Activities (`GET|PUT /activities/{id}`, and the activities of a Company). */
import type { Rec } from '../model.js';
import type { Fault } from './types.js';
import { eachRecord, onSuccess } from './reshape.js';

declare module './types.js' {
  interface HookPoints {
    /** The change `PUT /activities/{id}` makes to the Activity. */
    'activities.update.patch': { value: Partial<Rec>; ctx: { rec: Rec } };
  }
  interface SeamPoints {
    /** Storing the change of `PUT /activities/{id}`; answers the stored Activity. */
    'activities.update': { rec: Rec; patch: Partial<Rec> };
  }
}

/** A join on the wrong column: the parent comes out as the author. */
const parentIsAuthor = (a: unknown) => {
  if (!a || typeof a !== 'object' || !('user_id' in a)) return a;
  return { ...a, parent: { id: (a as { user_id: unknown }).user_id, type: 'user' } };
};

export const ACTIVITIES_FAULTS: Fault[] = [
  {
    name: 'activity-parent-wrong',
    rules: ['COMPANY-4'],
    description: 'an Activity\'s parent is its author ({ id: user_id, type: "user" }) instead of the record it is attached to',
    routes: ['GET /activities/{activity_id}', 'PUT /activities/{activity_id}', 'POST /companies/{company_id}/activities'].map((route) => ({
      route,
      respond: onSuccess((b) => eachRecord(b, parentIsAuthor)),
    })),
  },
  {
    name: 'activity-update-not-saved',
    rules: ['ACT-3'],
    description: 'PUT /activities/{id} answers the updated Activity but does not store the change',
    seam: { 'activities.update': <T>({ rec, patch }: { rec: Rec; patch: Partial<Rec> }) => ({ ...rec, ...patch }) as T },
  },
  {
    name: 'activity-update-date-ignored',
    rules: ['ACT-2'],
    description: 'PUT /activities/{id} updates details but ignores activity_date',
    at: {
      'activities.update.patch': (patch) => {
        const { activity_date: _, ...rest } = patch;
        return rest;
      },
    },
  },
];
