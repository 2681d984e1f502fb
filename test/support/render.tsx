/** Renders views with real services around them: a session actor, an API, a memory router. */
import { render, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, type ActorRefFrom } from 'xstate';
import { createApi, type Api } from '../../src/api/endpoints';
import { createHttp, type Http } from '../../src/api/http';
import { sessionMachine, type SessionMachine } from '../../src/machines/session/session.machine';
import { FlowOverridesContext, ServicesContext, type FlowOverrides } from '../../src/views/services';
import type { User } from '../../src/api/schemas';

export const demoUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'free@example.com',
  firstName: 'Maria',
  middleName: null,
  lastName: 'Santos',
  phoneNumber: null,
  gender: null,
  birthdate: '1990-06-15',
  photo: null,
  withPassword: true,
  subscription: { planId: 3, planName: 'Free', planType: 'FREE', status: 'ACTIVE', startDate: '2026-01-01T00:00:00.000Z', endDate: null },
};

/** An API whose every request answers with the given fetch (default: a network failure). */
export function apiWith(fetchImpl: typeof fetch, session?: ActorRefFrom<SessionMachine>): Api {
  return createApi(httpWith(fetchImpl, session));
}

/** The request function over a given fetch, with the session's token and 401 handling. */
export function httpWith(fetchImpl: typeof fetch, session?: ActorRefFrom<SessionMachine>): Http {
  return (
    createHttp({
      host: '',
      fetch: fetchImpl,
      getToken: () => session?.getSnapshot().context.token ?? null,
      onUnauthorized: () => session?.send({ type: 'session.unauthorized' }),
    })
  );
}

/** A real session actor; with a user, it boots from browser storage as after an earlier sign-in. */
export function startSession(user: User | null = null) {
  if (user) {
    window.localStorage.setItem('token', 'test-token');
    window.localStorage.setItem('user', JSON.stringify(user));
  }
  return createActor(sessionMachine).start();
}

export function renderView(
  ui: ReactNode,
  options: {
    path?: string;
    session?: ActorRefFrom<SessionMachine>;
    /** The request function pages reach through useApi(); or give `fetch` and it is built on it. */
    http?: Http;
    fetch?: typeof fetch;
    overrides?: FlowOverrides;
  } = {},
) {
  const location = memoryLocation({ path: options.path ?? '/', record: true });
  const session = options.session ?? startSession();
  const http = options.http ?? httpWith(options.fetch ?? (async () => { throw new TypeError('Failed to fetch'); }), session);
  const api = createApi(http);
  const result = render(
    <ServicesContext.Provider value={{ http, session }}>
      <FlowOverridesContext.Provider value={options.overrides ?? {}}>
        <Router hook={location.hook} searchHook={location.searchHook}>{ui}</Router>
      </FlowOverridesContext.Provider>
    </ServicesContext.Provider>,
  );
  return { ...result, location, session, api };
}

/**
 * The account menu's own button, once its code is in (issue 21: until then a stand-in holds its place,
 * and a click on the stand-in as it is being replaced can be lost), as a person sees it.
 */
export async function findAccountMenuButton(): Promise<HTMLElement> {
  return waitFor(() => {
    const button = screen.getByRole('button', { name: /My Account/ });
    expect(button).toHaveAttribute('data-scope', 'menu');
    return button;
  });
}
