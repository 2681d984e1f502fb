/**
 * What the offline inspector knows: the machine actors of the page (from XState's inspection API)
 * and, per actor, a log of every snapshot with the event that made it and the time. Events and
 * contexts are masked (src/lib/mask.ts) when they are recorded, so nothing secret is ever kept.
 */
import type { AnyActorRef, AnyStateMachine, InspectionEvent, StateValue } from 'xstate';
import { maskSecrets } from '../lib/mask';

export interface LogEntry {
  seq: number;
  /** ms since the epoch. */
  time: number;
  eventType: string;
  /** The event, masked. */
  event: unknown;
  value: StateValue;
  /** The context after the event, masked. */
  context: unknown;
  status: string;
}

export interface InspectedActor {
  sessionId: string;
  name: string;
  machine: AnyStateMachine;
  ref: AnyActorRef;
  startedAt: number;
  entries: LogEntry[];
}

/** Per actor; older entries fall off so a long session stays light. */
export const MAX_ENTRIES = 300;
/** Actors created but not started yet that are remembered (see `pending` below). */
export const PENDING_MAX = 50;

function machineOf(ref: AnyActorRef): AnyStateMachine | null {
  const logic = (ref as { logic?: unknown }).logic;
  return logic && typeof logic === 'object' && 'root' in logic && 'id' in logic ? (logic as AnyStateMachine) : null;
}

/** Only plain data survives, masked; anything else (actor refs, files) becomes its name. */
function plain(value: unknown): unknown {
  try {
    return JSON.parse(
      JSON.stringify(maskSecrets(value), (_key, item: unknown) => {
        if (item && typeof item === 'object' && !Array.isArray(item)) {
          const proto = Object.getPrototypeOf(item);
          if (proto !== Object.prototype && proto !== null) return `[${(proto as { constructor?: { name?: string } }).constructor?.name ?? 'object'}]`;
        }
        return item;
      }),
    );
  } catch {
    return '[unreadable]';
  }
}

export function createInspectorStore(now: () => number = Date.now) {
  const actors = new Map<string, InspectedActor>();
  const listeners = new Set<() => void>();
  let version = 0;
  let seq = 0;

  const changed = () => {
    version += 1;
    listeners.forEach((listener) => listener());
  };

  /**
   * Machine actors created but not started yet. XState announces an actor when it is constructed, and
   * React may construct one in a render it then throws away (a page rendered once more while the
   * app navigates away): such an actor never starts, and its initial snapshot would look live. So an
   * actor is listed only from its first snapshot, which XState sends when it starts.
   */
  const pending = new Map<string, InspectedActor>();

  function inspect(inspection: InspectionEvent) {
    if (inspection.type === '@xstate.actor') {
      const ref = inspection.actorRef as AnyActorRef;
      const machine = machineOf(ref);
      if (!machine || actors.has(ref.sessionId) || pending.has(ref.sessionId)) return;
      // Actors thrown away never say so: keep only the newest few waiting to start.
      if (pending.size >= PENDING_MAX) pending.delete(pending.keys().next().value!);
      pending.set(ref.sessionId, { sessionId: ref.sessionId, name: machine.id, machine, ref, startedAt: now(), entries: [] });
      return;
    }
    if (inspection.type === '@xstate.snapshot') {
      const id = inspection.actorRef.sessionId;
      const started = pending.get(id);
      if (started) {
        pending.delete(id);
        started.startedAt = now();
        actors.set(id, started);
      }
      const actor = actors.get(id);
      if (!actor) return;
      const snapshot = inspection.snapshot as { value?: StateValue; context?: unknown; status?: string };
      actor.entries.push({
        seq: (seq += 1),
        time: now(),
        eventType: inspection.event.type,
        event: plain(inspection.event),
        value: snapshot.value ?? '',
        context: plain(snapshot.context),
        status: snapshot.status ?? 'active',
      });
      if (actor.entries.length > MAX_ENTRIES) actor.entries.shift();
      changed();
    }
  }

  return {
    inspect,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getVersion: () => version,
    /** Live actors first (newest first), then the stopped ones. */
    actors(): InspectedActor[] {
      const list = [...actors.values()];
      const live = (a: InspectedActor) => a.ref.getSnapshot()?.status === 'active';
      return [...list.filter(live).reverse(), ...list.filter((a) => !live(a)).reverse()];
    },
    isLive: (actor: InspectedActor) => actor.ref.getSnapshot()?.status === 'active',
  };
}

export type InspectorStore = ReturnType<typeof createInspectorStore>;

/** The dotted paths of every active state node in a state value ('form', 'form.rejected'). */
export function activePaths(value: StateValue, prefix = ''): Set<string> {
  const out = new Set<string>();
  if (typeof value === 'string') {
    out.add(prefix ? `${prefix}.${value}` : value);
    return out;
  }
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.add(path);
    if (child !== undefined) for (const p of activePaths(child as StateValue, path)) out.add(p);
  }
  return out;
}
