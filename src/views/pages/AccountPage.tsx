/** Account (spec §2): the Profile card (photo, names) and the Security card (password change). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { profileQuery, queryKeys } from '../../api/queries';
import { useSelector } from '@xstate/react';
import { useRef, type ChangeEvent, type FormEvent } from 'react';
import type { Profile } from '../../api/schemas';
import { createAccountActors } from '../../machines/actors';
import { passwordMachine } from '../../machines/password.machine';
import { PHOTO_TYPES, photoMachine } from '../../machines/photo.machine';
import { profileMachine } from '../../machines/profile.machine';
import { button, card, fieldset, form, heading, muted, page } from '../../styles/ui.css';
import { notifyAction } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useFlow } from '../useFlow';
import * as css from './account.css';

function useAccountActors() {
  const { api } = useServices();
  return createAccountActors(api, useQueryClient());
}

/** Writes a saved change into the profile cache and the session, so every view shows it at once. */
function useProfileSaved() {
  const { session } = useServices();
  const queryClient = useQueryClient();
  return (changes: Partial<Profile>) => {
    queryClient.setQueryData<Profile>(queryKeys.profile, (old) => (old ? { ...old, ...changes } : old));
    session.send({ type: 'user.update', changes });
  };
}

function PhotoSection({ initials }: { initials: string }) {
  const input = useRef<HTMLInputElement>(null);
  const profileSaved = useProfileSaved();
  const { api } = useServices();
  const photo = useQuery(profileQuery(api)).data?.photo;
  const actor = useFlow(photoMachine, {
    actors: useAccountActors(),
    actions: {
      notify: notifyAction,
      photoSaved: (_: unknown, p: { photo: string }) => profileSaved({ photo: p.photo }),
    },
  });
  const state = useSelector(actor, (s) => s);
  const { previewUrl, error } = state.context;
  const uploading = state.matches('uploading');
  const shown = previewUrl ?? photo;

  function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (file) actor.send({ type: 'photo.choose', file });
    event.currentTarget.value = ''; // choosing the same file again still counts
  }

  return (
    <div className={css.photoRow}>
      {shown ? (
        <img className={css.avatar} src={shown} alt={previewUrl ? 'Preview of your new photo' : 'Your profile photo'} />
      ) : (
        <span className={css.avatar} aria-hidden="true">{initials}</span>
      )}
      <div className={css.photoControls}>
        <input
          ref={input} id="photo-input" className={css.fileInput} type="file" accept={PHOTO_TYPES.join(',')}
          onChange={onChoose} aria-label="Choose a photo" disabled={uploading}
        />
        <div className={css.photoActions}>
          {state.matches({ ready: 'chosen' }) || state.matches({ ready: 'failed' }) || uploading ? (
            <>
              <button type="button" className={button.primary} onClick={() => actor.send({ type: 'photo.upload' })} disabled={uploading} aria-busy={uploading}>
                {uploading ? 'Uploading...' : 'Upload Photo'}
              </button>
              <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'photo.discard' })} disabled={uploading}>
                Cancel
              </button>
            </>
          ) : (
            <button type="button" className={button.secondary} onClick={() => input.current?.click()}>Change Photo</button>
          )}
        </div>
        <ErrorBox message={error} />
        <p className={muted}>JPEG, PNG or WebP, up to 5 MB.</p>
      </div>
    </div>
  );
}

function ProfileCard() {
  const profileSaved = useProfileSaved();
  const actor = useFlow(profileMachine, {
    actors: useAccountActors(),
    actions: {
      notify: notifyAction,
      profileSaved: (_: unknown, { profile }: { profile: Profile }) =>
        profileSaved({ firstName: profile.firstName, middleName: profile.middleName, lastName: profile.lastName }),
    },
  });
  const state = useSelector(actor, (s) => s);
  const { profile, fieldErrors, serverMessage, revision } = state.context;
  const saving = state.matches('saving');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    actor.send({ type: 'form.submit', values: formValues(event.currentTarget, ['firstName', 'middleName', 'lastName'] as const) });
  }

  return (
    <section className={card} aria-labelledby="profile-title" aria-busy={state.matches('loading')}>
      <h2 id="profile-title" className={css.cardTitle}>Profile</h2>
      {state.matches('loading') && <p role="status">Loading profile...</p>}
      {state.matches('loadFailed') && (
        <>
          <ErrorBox message={serverMessage} />
          <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'load.retry' })}>Try again</button>
        </>
      )}
      {profile && (state.matches('form') || saving) && (
        <>
          <PhotoSection initials={`${profile.firstName[0] ?? ''}${profile.lastName[0] ?? ''}`} />
          <p className={muted}>{profile.email}</p>
          <form key={revision} className={form} onSubmit={onSubmit} noValidate aria-label="Profile">
            <ErrorBox message={serverMessage} />
            <fieldset className={fieldset} disabled={saving}>
              <TextField label="First Name" name="firstName" autoComplete="given-name" defaultValue={profile.firstName} error={fieldErrors.firstName} />
              <TextField label="Middle Name (optional)" name="middleName" autoComplete="additional-name" defaultValue={profile.middleName ?? ''} error={fieldErrors.middleName} />
              <TextField label="Last Name" name="lastName" autoComplete="family-name" defaultValue={profile.lastName} error={fieldErrors.lastName} />
              <button type="submit" className={button.primary} aria-busy={saving}>{saving ? 'Saving...' : 'Save Changes'}</button>
            </fieldset>
          </form>
        </>
      )}
    </section>
  );
}

function SecurityCard() {
  const formRef = useRef<HTMLFormElement>(null);
  const actor = useFlow(passwordMachine, {
    actors: useAccountActors(),
    actions: { notify: notifyAction, clearForm: () => formRef.current?.reset() },
  });
  const state = useSelector(actor, (s) => s);
  const { fieldErrors, serverMessage } = state.context;
  const submitting = state.matches('submitting');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    actor.send({ type: 'form.submit', values: formValues(event.currentTarget, ['oldPassword', 'newPassword', 'confirmNewPassword'] as const) });
  }

  return (
    <section className={card} aria-labelledby="security-title">
      <h2 id="security-title" className={css.cardTitle}>Security</h2>
      <form ref={formRef} className={form} onSubmit={onSubmit} noValidate aria-label="Change password">
        <ErrorBox message={serverMessage} />
        <fieldset className={fieldset} disabled={submitting}>
          <TextField label="Old Password" name="oldPassword" type="password" autoComplete="current-password" error={fieldErrors.oldPassword} />
          <TextField label="New Password" name="newPassword" type="password" autoComplete="new-password" error={fieldErrors.newPassword} />
          <TextField label="Confirm New Password" name="confirmNewPassword" type="password" autoComplete="new-password" error={fieldErrors.confirmNewPassword} />
          <button type="submit" className={button.primary} aria-busy={submitting}>{submitting ? 'Updating...' : 'Update Password'}</button>
        </fieldset>
      </form>
    </section>
  );
}

export default function AccountPage() {
  return (
    <div className={page}>
      <h1 className={heading}>Account</h1>
      <div className={css.cards}>
        <ProfileCard />
        <SecurityCard />
      </div>
    </div>
  );
}
