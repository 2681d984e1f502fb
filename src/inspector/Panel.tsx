/**
 * The offline inspector's panel (issue 12): the live actors of the page; for the chosen one, its
 * chart as nested state boxes with the current state highlighted, its masked context, and the log of
 * events with their time. Choosing a log entry (or Step back / Step forward) shows the chart and the
 * context as they were then; Live follows the actor again.
 */
import { useState, useSyncExternalStore } from 'react';
import type { AnyStateNode } from 'xstate';
import { INSPECT_STORAGE_KEY } from '../lib/inspector';
import * as css from './panel.css';
import { activePaths, type InspectedActor, type InspectorStore, type LogEntry } from './store';

function clock(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function eventName(type: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^xstate\.done\.actor\.(.+)$/.exec(type))) return `done: ${m[1]}`;
  if ((m = /^xstate\.error\.actor\.(.+)$/.exec(type))) return `error: ${m[1]}`;
  if (type === 'xstate.init') return 'start';
  return type;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => (v && (typeof v === 'string' || Object.keys(v).length) ? `${k}.${valueText(v)}` : k))
      .join(', ');
  }
  return '';
}

function StateTree({ node, active }: { node: AnyStateNode; active: Set<string> }) {
  const children = Object.values(node.states) as AnyStateNode[];
  return (
    <ul className={css.log} style={{ maxHeight: 'none', paddingLeft: node.path.length ? 12 : 0 }}>
      {children.map((child) => {
        const path = child.path.join('.');
        const isActive = active.has(path);
        const events = [...child.transitions.keys()].filter((e) => !e.startsWith('xstate.')).map(eventName);
        return (
          <li
            key={path}
            className={`${css.stateBox} ${isActive ? css.activeBox : ''}`}
            data-state={path}
            data-active={isActive ? 'true' : undefined}
            aria-current={isActive ? 'true' : undefined}
          >
            <span className={css.stateName}>{child.key}</span>
            {child.description ? <span className={css.muted}> — {child.description}</span> : null}
            {child.type === 'final' ? <span className={css.muted}> (final)</span> : null}
            {isActive ? <span className="visually-hidden"> (current)</span> : null}
            {events.length ? <div className={css.muted}>on: {events.join(', ')}</div> : null}
            {child.invoke.length ? <div className={css.muted}>calls: {child.invoke.map((i) => i.id).join(', ')}</div> : null}
            {Object.keys(child.states).length ? <StateTree node={child} active={active} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function storedOn(): boolean {
  try {
    return localStorage.getItem(INSPECT_STORAGE_KEY) === 'local';
  } catch {
    return false;
  }
}

export function Panel({ store, onTurnOff }: { store: InspectorStore; onTurnOff: () => void }) {
  useSyncExternalStore(store.subscribe, store.getVersion);
  const [open, setOpen] = useState(true);
  const [chosen, setChosen] = useState<string | null>(null);
  // The log entry shown (its seq); null follows the actor live.
  const [step, setStep] = useState<number | null>(null);
  const [keep, setKeep] = useState(storedOn);

  const actors = store.actors();
  const actor: InspectedActor | undefined = actors.find((a) => a.sessionId === chosen) ?? actors[0];
  const entries = actor?.entries ?? [];
  const index = step === null ? entries.length - 1 : entries.findIndex((e) => e.seq === step);
  const shown: LogEntry | undefined = entries[index];

  const choose = (sessionId: string) => {
    setChosen(sessionId);
    setStep(null);
  };
  const toggleKeep = (on: boolean) => {
    try {
      if (on) localStorage.setItem(INSPECT_STORAGE_KEY, 'local');
      else localStorage.removeItem(INSPECT_STORAGE_KEY);
    } catch {
      // Storage refused (private mode): the flag in the address still keeps the panel on.
    }
    setKeep(on);
  };

  return (
    <aside className={`${css.panel} ${open ? '' : css.collapsed}`} aria-label="Inspector" data-inspector="local">
      <div className={css.bar}>
        <h2 className={css.heading}>Inspector</h2>
        {open ? (
          <label>
            <input type="checkbox" checked={keep} onChange={(e) => toggleKeep(e.target.checked)} /> Keep on
          </label>
        ) : null}
        <button type="button" className={css.button} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'}
        </button>
        <button type="button" className={css.button} onClick={onTurnOff}>
          Turn off
        </button>
      </div>
      {open ? (
        <>
          <h3 className={css.subheading}>Actors</h3>
          {actors.length === 0 ? <p className={css.muted}>No flow has started yet.</p> : null}
          <ul className={css.list} aria-label="Actors">
            {actors.map((a) => (
              <li key={a.sessionId}>
                <button
                  type="button"
                  className={css.button}
                  aria-pressed={a === actor}
                  onClick={() => choose(a.sessionId)}
                  title={store.isLive(a) ? 'running' : 'stopped'}
                >
                  {a.name}
                  {store.isLive(a) ? '' : ' (stopped)'}
                </button>
              </li>
            ))}
          </ul>
          {actor && shown ? (
            <>
              <h3 className={css.subheading}>
                {actor.name}: <span data-testid="inspector-state">{valueText(shown.value)}</span>
                {step === null ? ' (live)' : ` (at ${clock(shown.time)})`}
              </h3>
              <section aria-label="Chart">
                <StateTree node={actor.machine.root} active={activePaths(shown.value)} />
              </section>
              <h3 className={css.subheading}>Context</h3>
              <pre className={css.pre} aria-label="Context">{JSON.stringify(shown.context, null, 2)}</pre>
              <h3 className={css.subheading}>Events</h3>
              <div className={css.bar}>
                <button type="button" className={css.button} disabled={index <= 0} onClick={() => setStep(entries[index - 1]!.seq)}>
                  Step back
                </button>
                <button
                  type="button"
                  className={css.button}
                  disabled={step === null || index >= entries.length - 1}
                  onClick={() => setStep(index + 1 >= entries.length - 1 ? null : entries[index + 1]!.seq)}
                >
                  Step forward
                </button>
                <button type="button" className={css.button} disabled={step === null} onClick={() => setStep(null)}>
                  Live
                </button>
              </div>
              <ol className={css.log} aria-label="Event log">
                {entries.map((entry, i) => (
                  <li key={entry.seq}>
                    <button
                      type="button"
                      className={css.logButton}
                      aria-current={i === index ? 'true' : undefined}
                      title={JSON.stringify(entry.event)}
                      onClick={() => setStep(i === entries.length - 1 ? null : entry.seq)}
                    >
                      <time dateTime={new Date(entry.time).toISOString()}>{clock(entry.time)}</time> {eventName(entry.eventType)} →{' '}
                      {valueText(entry.value)}
                    </button>
                  </li>
                ))}
              </ol>
            </>
          ) : null}
        </>
      ) : null}
    </aside>
  );
}
