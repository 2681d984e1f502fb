/** product.md#password-rule: the password rule (8..128, not a common one) and the minimum age of 18, shared by both sides. */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commonPasswordCount, isCommonPassword, loadCommonPasswords } from '../../src/api/commonPasswords';
import {
  adultBirthdateField, latestAdultBirthdate, messages, passwordChangeRequestSchema, resetPasswordRequestSchema,
  signInRequestSchema, signUpRequestSchema,
} from '../../src/api/schemas';
import { fieldErrorsOf } from '../../src/lib/validation';

const adult = { email: 'nena@example.com', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14' };
const signUp = (password: string, birthdate = adult.birthdate) =>
  fieldErrorsOf(signUpRequestSchema, { ...adult, password, passwordConfirm: password, birthdate });
const reset = (password: string) => fieldErrorsOf(resetPasswordRequestSchema, { resetToken: 't', password, confirmPassword: password });
const change = (newPassword: string) =>
  fieldErrorsOf(passwordChangeRequestSchema, { oldPassword: 'anything', newPassword, confirmNewPassword: newPassword });

// The app loads the list on demand (the pages with a new-password field start it); the server eagerly.
beforeAll(async () => {
  expect(await loadCommonPasswords()).toBe(true);
});

describe('the common-password list', () => {
  it('holds the 10,000 most common passwords, compared without case', () => {
    expect(commonPasswordCount()).toBeGreaterThan(9_800); // 10,000 lines; a few differ only in case
    expect(commonPasswordCount()).toBeLessThanOrEqual(10_000);
    for (const password of ['password', 'Password', 'PASSWORD1', '12345678', 'qwertyuiop', 'iloveyou', 'sunshine']) {
      expect(isCommonPassword(password), password).toBe(true);
    }
    for (const password of ['Bisaya-Demo-2026', 'Lami-kaayo-2026', 'Bagong-Password-1', 'N3w-pass']) {
      expect(isCommonPassword(password), password).toBe(false);
    }
  });
});

describe('the list on demand (its own chunk)', () => {
  it('lets a common password through until the list has arrived (the server still refuses it), then refuses it', async () => {
    vi.resetModules(); // a fresh copy of the modules: the list not loaded yet
    const passwords = await import('../../src/api/commonPasswords');
    const fresh = await import('../../src/api/schemas');
    const { fieldErrorsOf: errorsOf } = await import('../../src/lib/validation');
    const signUpWith = (password: string) =>
      errorsOf(fresh.signUpRequestSchema, { ...adult, password, passwordConfirm: password }).password;
    expect(passwords.commonPasswordsLoaded()).toBe(false);
    expect(signUpWith('password1')).toBeUndefined();
    expect(signUpWith('short')).toBe(messages.passwordTooShort()); // the rest of the rule holds meanwhile
    const load = passwords.loadCommonPasswords();
    expect(passwords.loadCommonPasswords()).toBe(load); // fetched once
    expect(await load).toBe(true);
    expect(signUpWith('password1')).toBe(messages.passwordTooCommon());
  });
});

describe('a new password (sign-up, reset, change)', () => {
  it.each([
    ['sign-up', (p: string) => signUp(p).password],
    ['reset', (p: string) => reset(p).password],
    ['change', (p: string) => change(p).newPassword],
  ])('%s: at least 8 characters, at most 128, not a common one', (_flow, errorOf) => {
    expect(errorOf('abc')).toBe(messages.passwordTooShort());
    expect(errorOf('short')).toBe(messages.passwordTooShort());
    expect(errorOf('Lami-k7')).toBe(messages.passwordTooShort());
    expect(errorOf('x'.repeat(129))).toBe(messages.passwordTooLong());
    expect(errorOf('password')).toBe(messages.passwordTooCommon());
    expect(errorOf('SunShine')).toBe(messages.passwordTooCommon());
    expect(errorOf('Lami-k7p')).toBeUndefined();
    expect(errorOf('x'.repeat(120) + 'Lami-k7p')).toBeUndefined();
    expect(errorOf('Bisaya-Demo-2026')).toBeUndefined();
  });
  it("keeps each form's own 'required' message for an empty password", () => {
    expect(signUp('').password).toBe('Password is required');
    expect(change('').newPassword).toBe('New Password is required');
  });
  it('uses the exact strings of design.md', () => {
    expect(messages.passwordTooShort()).toBe('Password must be at least 8 characters');
    expect(messages.passwordTooCommon()).toBe('This password is too common');
    expect(messages.underMinimumAge()).toBe('You must be at least 18 years old');
  });
  it('does not apply to sign-in: an existing password is whatever it is', () => {
    expect(fieldErrorsOf(signInRequestSchema, { email: 'free@example.com', password: 'abc' })).toEqual({});
  });
});

describe('the minimum age at sign-up', () => {
  const on = (today: string) => adultBirthdateField(() => today);
  const errorOf = (today: string, birthdate: string) => on(today).safeParse(birthdate).error?.issues[0]?.message;

  it('refuses a birthdate less than 18 years ago, accepts one 18 years ago to the day', () => {
    expect(latestAdultBirthdate('2026-05-20')).toBe('2008-05-20');
    expect(errorOf('2026-05-20', '2008-05-20')).toBeUndefined();
    expect(errorOf('2026-05-20', '2008-05-21')).toBe('You must be at least 18 years old');
    expect(errorOf('2026-05-20', '2020-01-01')).toBe('You must be at least 18 years old');
    expect(errorOf('2026-05-20', '1900-01-01')).toBeUndefined();
  });
  it('a leap-day birthday comes of age on 1 March in a common year', () => {
    expect(errorOf('2026-02-28', '2008-02-29')).toBe('You must be at least 18 years old');
    expect(errorOf('2026-03-01', '2008-02-29')).toBeUndefined();
  });
  it('keeps the earlier birthdate messages first', () => {
    expect(errorOf('2026-05-20', '')).toBe('Birthdate is required');
    expect(errorOf('2026-05-20', '2030-01-01')).toBe('Birthdate cannot be in the future');
  });
  it('sign-up itself refuses a minor today', () => {
    const today = new Date();
    const minor = `${today.getFullYear() - 10}-01-01`;
    expect(signUp('Lami-kaayo-2026', minor).birthdate).toBe('You must be at least 18 years old');
    expect(signUp('Lami-kaayo-2026').birthdate).toBeUndefined();
  });
});
