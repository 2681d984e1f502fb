/**
 * zod/mini has no default locale: a rule without a message of its own would say 'Invalid input'.
 * Every schema a form validates in the app must answer with one of the spec's messages, whatever
 * the fields hold (issue 10 moved the contract from classic zod to zod/mini).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as s from '../../src/api/schemas';

const known = new Set<string>([...Object.values(s.messages).map((message) => message()), 'This field is required']);
const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', 'a\tb', 'x'.repeat(300), 'password', 'nena@example.com', '1995-03-14', '2999-01-01', 'AB12CD'),
  fc.constantFrom(undefined, null, 42, true, {}, []),
);

const forms: Array<[string, { safeParse: (v: unknown) => { success: boolean; error?: { issues: Array<{ message: string }> } } }, string[]]> = [
  ['sign-in', s.signInRequestSchema, ['email', 'password']],
  ['sign-up', s.signUpRequestSchema, ['email', 'password', 'passwordConfirm', 'firstName', 'lastName', 'birthdate']],
  ['recovery email', s.forgotSendRequestSchema, ['email']],
  ['recovery reset', s.resetPasswordRequestSchema, ['resetToken', 'password', 'confirmPassword']],
  ['profile', s.profileUpdateRequestSchema, ['firstName', 'middleName', 'lastName']],
  ['password change', s.passwordChangeRequestSchema, ['oldPassword', 'newPassword', 'confirmNewPassword']],
  ['voucher', s.voucherRedeemRequestSchema, ['code']],
  ['sign-up code', s.signUpVerifyRequestSchema, ['verificationToken', 'otpCode']],
];

describe('the messages of the forms on zod/mini', () => {
  it.each(forms)("%s: every message is one of the contract's, never zod's 'Invalid input'", (_form, schema, fields) => {
    fc.assert(
      fc.property(fc.tuple(...fields.map(() => value)), (values) => {
        const result = schema.safeParse(Object.fromEntries(fields.map((field, i) => [field, values[i]])));
        for (const issue of result.error?.issues ?? []) expect(known, issue.message).toContain(issue.message);
      }),
      { numRuns: 300 },
    );
  });
  it('the one-field schemas too (the code, a birthdate)', () => {
    fc.assert(
      fc.property(value, (v) => {
        for (const schema of [s.otpField, s.adultBirthdateField(() => '2026-05-20')]) {
          for (const issue of schema.safeParse(v).error?.issues ?? []) expect(known, issue.message).toContain(issue.message);
        }
      }),
      { numRuns: 300 },
    );
  });
});
