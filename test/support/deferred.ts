/**
 * Actors replaced by deferred promises: the machine's real `fromPromise` call waits until a test
 * resolves or rejects it, exactly as the network would answer.
 */
import { fromPromise, type AnyActorLogic } from 'xstate';

interface PendingCall {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface DeferredActors {
  actors: Record<string, AnyActorLogic>;
  resolve(name: string, value: unknown): void;
  reject(name: string, error: unknown): void;
  /** Inputs of every call made to an actor, oldest first. */
  inputs(name: string): unknown[];
  pending(name: string): number;
}

export function createDeferredActors(names: readonly string[]): DeferredActors {
  const pending = new Map<string, PendingCall[]>(names.map((name) => [name, []]));
  const history = new Map<string, unknown[]>(names.map((name) => [name, []]));
  const queue = (name: string) => {
    const list = pending.get(name);
    if (!list) throw new Error(`"${name}" is not a deferred actor here (known: ${names.join(', ')})`);
    return list;
  };
  const take = (name: string) => {
    const call = queue(name).shift();
    if (!call) throw new Error(`No pending call of "${name}" to answer: the view never started it`);
    return call;
  };
  const actors = Object.fromEntries(
    names.map((name) => [
      name,
      fromPromise(({ input, signal }) =>
        new Promise((resolve, reject) => {
          history.get(name)!.push(input);
          const call: PendingCall = { input, resolve, reject };
          queue(name).push(call);
          signal.addEventListener('abort', () => {
            const list = queue(name);
            const index = list.indexOf(call);
            if (index >= 0) list.splice(index, 1);
          });
        }),
      ),
    ]),
  );
  return {
    actors,
    resolve: (name, value) => take(name).resolve(value),
    reject: (name, error) => take(name).reject(error),
    inputs: (name) => [...(history.get(name) ?? [])],
    pending: (name) => queue(name).length,
  };
}
