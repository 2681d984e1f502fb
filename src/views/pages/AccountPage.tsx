/** Account (spec §2): the profile read; editing arrives with the identity flows. */
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/queries';
import { card, heading, muted, page } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { useServices } from '../services';

export default function AccountPage() {
  const { api } = useServices();
  const profile = useQuery({ queryKey: queryKeys.profile, queryFn: ({ signal }) => api.getProfile(signal) });
  return (
    <div className={page}>
      <h1 className={heading}>Account</h1>
      <section className={card} aria-labelledby="profile-title" aria-busy={profile.isPending}>
        <h2 id="profile-title">Profile</h2>
        {profile.isPending && <p role="status">Loading profile...</p>}
        {profile.isError && <ErrorBox message={profile.error.message} />}
        {profile.data && (
          <dl>
            <dt className={muted}>Name</dt>
            <dd>{[profile.data.firstName, profile.data.middleName, profile.data.lastName].filter(Boolean).join(' ')}</dd>
            <dt className={muted}>Email</dt>
            <dd>{profile.data.email}</dd>
          </dl>
        )}
      </section>
    </div>
  );
}
