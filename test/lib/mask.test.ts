import { describe, expect, it } from 'vitest';
import { MASK, maskSecrets } from '../../src/lib/mask';
import { inspectorRequested } from '../../src/lib/inspector';

describe('maskSecrets', () => {
  it('hides passwords, codes, tokens and card data at any depth', () => {
    const masked = maskSecrets({
      credentials: { email: 'a@b.c', password: 'hunter2' },
      otpCode: '123456',
      accessToken: 'jwt',
      card: { number: '4123450131001381', cvc: '123', expMonth: '12' },
      list: [{ resetToken: 'r' }],
      event: { type: 'form.submit', values: { confirmPassword: 'x', newPassword: 'y', oldPassword: 'z' } },
    });
    expect(masked.credentials).toEqual({ email: 'a@b.c', password: MASK });
    expect(masked.otpCode).toBe(MASK);
    expect(masked.accessToken).toBe(MASK);
    expect(masked.card.number).toBe(MASK);
    expect(masked.card.cvc).toBe(MASK);
    expect(masked.card.expMonth).toBe('12');
    expect(masked.list[0]!.resetToken).toBe(MASK);
    expect(masked.event.values).toEqual({ confirmPassword: MASK, newPassword: MASK, oldPassword: MASK });
    expect(JSON.stringify(masked)).not.toMatch(/hunter2|123456|jwt|4123450131001381/);
  });
  it('leaves empty values and non-secrets alone', () => {
    expect(maskSecrets({ password: '', token: null, name: 'Juan' })).toEqual({ password: '', token: null, name: 'Juan' });
  });
  it('hides every entry of a list of secrets (an operator\'s recovery codes) and the enrolment secret', () => {
    expect(maskSecrets({ recoveryCodes: ['abcd-1234', 'efgh-5678'], enrolment: { secret: 'JBSWY3DP', otpauthUrl: 'otpauth://totp/x?secret=JBSWY3DP' } })).toEqual({
      recoveryCodes: [MASK, MASK], enrolment: { secret: MASK, otpauthUrl: MASK },
    });
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { token: 't' };
    a.self = a;
    expect(() => maskSecrets(a)).not.toThrow();
  });
});

describe('inspectorRequested', () => {
  it('is on with ?inspect or the build flag only', () => {
    expect(inspectorRequested('?inspect', undefined)).toBe(true);
    expect(inspectorRequested('?from=/x&inspect=1', undefined)).toBe(true);
    expect(inspectorRequested('', 'true')).toBe(true);
    expect(inspectorRequested('?from=/inspect', undefined)).toBe(false);
  });
});
