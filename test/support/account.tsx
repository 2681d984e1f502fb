/** Renders the account page with a real React Query cache and an API whose profile read succeeds. */
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { createQueryClient, queryKeys } from '../../src/api/queries';
import type { Profile } from '../../src/api/schemas';
import AccountPage from '../../src/views/pages/AccountPage';
import type { RunTools } from './model';
import { demoUser, renderView, startSession } from './render';

export const profileFixture: Profile = { firstName: 'Maria', middleName: null, lastName: 'Santos', email: 'free@example.com', photo: null };

export const profileFetch: typeof fetch = async (url) => {
  if (String(url).endsWith('/account/profile')) {
    return new Response(JSON.stringify({ success: true, message: 'OK', data: profileFixture }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }
  return new Response(JSON.stringify({ success: false, message: 'Not in this test' }), { status: 500 });
};

export function renderAccount(tools: RunTools) {
  const session = startSession(demoUser);
  // The flow's loadProfile is a deferred here; the real one fills this cache, which the form reads.
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.profile, profileFixture);
  const run = renderView(
    <QueryClientProvider client={queryClient}>
      <AccountPage />
    </QueryClientProvider>,
    { path: '/account', session, fetch: profileFetch, overrides: { actors: tools.actors.actors, inspect: tools.inspect } },
  );
  return { ...run, user: userEvent.setup({ applyAccept: false }) };
}
