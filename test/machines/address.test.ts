/** The address modules: one reading and writing of each flow's URL, on the route table. */
import { describe, expect, it } from 'vitest';
import * as recovery from '../../src/machines/recovery/recovery.address';
import * as signUp from '../../src/machines/signUp/signUp.address';

describe('sign-up address', () => {
  it('reads what it writes', () => {
    const locations: signUp.SignUpLocation[] = [
      { step: 'register', verificationToken: null, email: null },
      { step: 'register', verificationToken: null, email: 'nena@example.com' },
      { step: 'verify', verificationToken: 'vt 1/+', email: 'nena+1@example.com' },
      { step: 'verify', verificationToken: null, email: 'nena@example.com' },
    ];
    for (const location of locations) {
      const [path, search = ''] = signUp.format(location).split('?');
      expect(signUp.parse(path!, search)).toEqual(location);
    }
    expect(signUp.format(locations[2]!)).toBe('/register/verify?q=vt+1%2F%2B&email=nena%2B1%40example.com');
  });
  it('gives the route one pattern for all its steps', () => {
    for (const path of ['/register', '/register/', '/register/verify']) expect(signUp.signUpRoute.test(path)).toBe(true);
    for (const path of ['/registerx', '/register/reset', '/forgot-password']) expect(signUp.signUpRoute.test(path)).toBe(false);
  });
});

describe('recovery address', () => {
  it('reads what it writes', () => {
    const locations: recovery.RecoveryLocation[] = [
      { step: 'request', verifyToken: null, email: null, resetToken: null },
      { step: 'verify', verifyToken: 'vt', email: 'premium@example.com', resetToken: null },
      { step: 'reset', verifyToken: null, email: null, resetToken: 'rt=1' },
      { step: 'reset', verifyToken: null, email: null, resetToken: null },
    ];
    for (const location of locations) {
      const [path, search = ''] = recovery.format(location).split('?');
      expect(recovery.parse(path!, search)).toEqual(location);
    }
  });
  it('keeps a q of one step out of another step', () => {
    expect(recovery.parse('/forgot-password/reset', 'q=rt&email=a%40b.co')).toEqual({ step: 'reset', verifyToken: null, email: null, resetToken: 'rt' });
    expect(recovery.parse('/forgot-password/verify', 'q=vt')).toMatchObject({ verifyToken: 'vt', resetToken: null });
  });
  it('gives the route one pattern for all its steps', () => {
    for (const path of ['/forgot-password', '/forgot-password/verify', '/forgot-password/reset/']) expect(recovery.recoveryRoute.test(path)).toBe(true);
    expect(recovery.recoveryRoute.test('/forgot-password/other')).toBe(false);
  });
});
