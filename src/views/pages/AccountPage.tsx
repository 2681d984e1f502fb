/** Account (product.md#account): the Profile card (photo, names) and the Security card (password change). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { loadCommonPasswords } from '../../api/commonPasswords';
import { profileQuery, queryKeys } from '../../api/queries';
import { useEffect, useMemo, useRef, type ChangeEvent, type FormEvent } from 'react';
import type { Profile } from '../../api/schemas';
import { createAccountActors } from '../../machines/actors';
import { connectSession } from '../../machines/session';
import { connectPassword } from '../../machines/password/password.connect';
import { passwordMachine } from '../../machines/password/password.machine';
import { connectPhoto } from '../../machines/photo/photo.connect';
import { PHOTO_TYPES, photoMachine } from '../../machines/photo/photo.machine';
import { connectProfile } from '../../machines/profile/profile.connect';
import { profileMachine } from '../../machines/profile/profile.machine';
import { m } from '../../i18n';
import { button, card, fieldset, form, heading, muted, page } from '../../styles/ui.css';
import { notifyFor } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { formValues } from '../parts/formValues';
import { TextField } from '../parts/TextField';
import { useServices } from '../services';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import * as css from './account.css';
import ChangeEmailSection from './account/ChangeEmailSection';
import DevicesSection from './account/DevicesSection';
import DataSection from './account/DataSection';
import DeleteAccountSection from './account/DeleteAccountSection';

function useAccountActors() {
  return createAccountActors(useApi(), useQueryClient());
}

/** A preview address for a chosen file, released when the file changes or the part goes. */
const pendingRevokes = new Map<string, ReturnType<typeof setTimeout>>();
function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => {
    if (!url) return;
    // StrictMode unmounts and remounts at once: a release is only done if the address is not taken back.
    clearTimeout(pendingRevokes.get(url));
    pendingRevokes.delete(url);
    return () => {
      pendingRevokes.set(url, setTimeout(() => {
        URL.revokeObjectURL(url);
        pendingRevokes.delete(url);
      }));
    };
  }, [url]);
  return url;
}

/** Writes a saved change into the profile cache and the session, so every view shows it at once. */
function useProfileSaved() {
  const { session } = useServices();
  const { updateUser } = useConnect(session, connectSession);
  const queryClient = useQueryClient();
  return (changes: Partial<Profile>) => {
    queryClient.setQueryData<Profile>(queryKeys.profile, (old) => (old ? { ...old, ...changes } : old));
    // The TIN is the profile's alone (invoices); the session's user is what the header shows.
    const { tin: _tin, ...user } = changes;
    updateUser(user);
  };
}

function PhotoSection({ initials }: { initials: string }) {
  const input = useRef<HTMLInputElement>(null);
  const profileSaved = useProfileSaved();
  const photo = useQuery(profileQuery(useApi())).data?.photo;
  const actor = useFlow(photoMachine, {
    actors: useAccountActors(),
    actions: {
      notify: notifyFor('photo'),
      photoSaved: (_, p) => profileSaved({ photo: p.photo }),
    },
  });
  const { file, error, uploading, pending, choose, upload, discard } = useConnect(actor, connectPhoto);
  const previewUrl = useObjectUrl(file);
  const shown = previewUrl ?? photo;

  function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (file) choose(file);
    event.currentTarget.value = ''; // choosing the same file again still counts
  }

  return (
    <div className={css.photoRow}>
      {shown ? (
        <img className={css.avatar} src={shown} alt={previewUrl ? m.preview_of_your_new_photo() : m.your_profile_photo()} />
      ) : (
        <span className={css.avatar} aria-hidden="true">{initials}</span>
      )}
      <div className={css.photoControls}>
        <input
          ref={input} id="photo-input" className={css.fileInput} type="file" accept={PHOTO_TYPES.join(',')}
          onChange={onChoose} aria-label={m.choose_a_photo()} disabled={uploading}
        />
        <div className={css.photoActions}>
          {pending ? (
            <>
              <button type="button" className={button.primary} onClick={upload} disabled={uploading} aria-busy={uploading}>
                {uploading ? m.uploading() : m.upload_photo()}
              </button>
              <button type="button" className={button.secondary} onClick={discard} disabled={uploading}>
                {m.cancel()}
              </button>
            </>
          ) : (
            <button type="button" className={button.secondary} onClick={() => input.current?.click()}>{m.change_photo()}</button>
          )}
        </div>
        <ErrorBox message={error} />
        <p className={muted}>{m.jpeg_png_or_webp_up_to_5_mb()}</p>
      </div>
    </div>
  );
}

function ProfileCard() {
  const profileSaved = useProfileSaved();
  const actor = useFlow(profileMachine, {
    actors: useAccountActors(),
    actions: {
      notify: notifyFor('profile'),
      profileSaved: (_, { profile: saved }) =>
        profileSaved({ firstName: saved.firstName, middleName: saved.middleName, lastName: saved.lastName, tin: saved.tin ?? null }),
    },
  });
  const props = useConnect(actor, connectProfile);
  const { loading, loadFailed, showForm, serverMessage, onRetry } = props;

  return (
    <section className={card} aria-labelledby="profile-title" aria-busy={loading}>
      <h2 id="profile-title" className={css.cardTitle}>{m.profile()}</h2>
      {loading && <p role="status">{m.loading_profile()}</p>}
      {loadFailed && (
        <>
          <ErrorBox message={serverMessage} />
          <button type="button" className={button.secondary} onClick={onRetry}>{m.try_again()}</button>
        </>
      )}
      {showForm && <ProfileFields {...props} />}
    </section>
  );
}

/**
 * The loaded profile's fields. React Query owns the profile (product.md#state-ownership): they read the cache the flow's
 * loadProfile filled. Only mounted once it is loaded, so no query observer comes and goes (StrictMode)
 * while the flow's fetch is in flight: the last observer leaving cancels it.
 */
function ProfileFields({ saving, fieldErrors, serverMessage, revision, onSubmit: submit }: ReturnType<typeof connectProfile>) {
  const profile = useQuery(profileQuery(useApi())).data;
  if (!profile) return null;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(formValues(event.currentTarget, ['firstName', 'middleName', 'lastName', 'tin'] as const));
  }

  return (
    <>
      <PhotoSection initials={`${profile.firstName[0] ?? ''}${profile.lastName[0] ?? ''}`} />
      <p className={muted}>{profile.email}</p>
      <form key={revision} className={form} onSubmit={onSubmit} noValidate aria-label={m.profile()}>
        <ErrorBox message={serverMessage} />
        <fieldset className={fieldset} disabled={saving}>
          <TextField label={m.first_name()} name="firstName" autoComplete="given-name" defaultValue={profile.firstName} error={fieldErrors.firstName} />
          <TextField label={m.middle_name_optional()} name="middleName" autoComplete="additional-name" defaultValue={profile.middleName ?? ''} error={fieldErrors.middleName} />
          <TextField label={m.last_name()} name="lastName" autoComplete="family-name" defaultValue={profile.lastName} error={fieldErrors.lastName} />
          <TextField
            label={m.tin_for_invoices_optional()} name="tin" inputMode="numeric" autoComplete="off" placeholder="000-000-000-00000"
            defaultValue={profile.tin ?? ''} error={fieldErrors.tin}
          />
          <button type="submit" className={button.primary} aria-busy={saving}>{saving ? m.saving() : m.save_changes()}</button>
        </fieldset>
      </form>
    </>
  );
}

function SecurityCard() {
  const formRef = useRef<HTMLFormElement>(null);
  const actor = useFlow(passwordMachine, {
    actors: useAccountActors(),
    actions: { notify: notifyFor('password'), clearForm: () => formRef.current?.reset() },
  });
  const { submitting, fieldErrors, serverMessage, onSubmit: submit } = useConnect(actor, connectPassword);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(formValues(event.currentTarget, ['oldPassword', 'newPassword', 'confirmNewPassword'] as const));
  }

  return (
    <section className={card} aria-labelledby="security-title">
      <h2 id="security-title" className={css.cardTitle}>{m.security()}</h2>
      {/* The new password's common-password check: its list (a chunk of its own) is fetched once the form is used. */}
      <form ref={formRef} className={form} onSubmit={onSubmit} onFocus={() => void loadCommonPasswords()} noValidate aria-label={m.change_password()}>
        <ErrorBox message={serverMessage} />
        <fieldset className={fieldset} disabled={submitting}>
          <TextField label={m.old_password()} name="oldPassword" type="password" autoComplete="current-password" error={fieldErrors.oldPassword} />
          <TextField label={m.new_password()} name="newPassword" type="password" autoComplete="new-password" error={fieldErrors.newPassword} />
          <TextField label={m.confirm_new_password()} name="confirmNewPassword" type="password" autoComplete="new-password" error={fieldErrors.confirmNewPassword} />
          <button type="submit" className={button.primary} aria-busy={submitting}>{submitting ? m.updating() : m.update_password()}</button>
        </fieldset>
      </form>
    </section>
  );
}

export default function AccountPage() {
  return (
    <div className={page}>
      <h1 className={heading}>{m.account()}</h1>
      <div className={css.cards}>
        <ProfileCard />
        <SecurityCard />
        <ChangeEmailSection />
        <DevicesSection />
        <DataSection />
        <DeleteAccountSection />
      </div>
    </div>
  );
}
