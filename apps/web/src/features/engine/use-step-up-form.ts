import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiClientError } from '../../lib/api-client';
import { engineAuthorityQuery, isSteppedUp, useStepUp } from './api-authority';

type Field = 'password' | 'otp' | 'recovery_code';
const codeOf = (e: unknown) => (e instanceof ApiClientError ? e.code : undefined);

/**
 * The step-up part of the prohibit dialog (docs/engine-control.md): the password when the session is
 * not stepped up, then the 6-digit code (or a recovery code) when the account has TOTP (the server
 * answers OTP_REQUIRED). A sign-in with the code counts as a step-up, so right after it nothing is
 * asked. Refusals land under their field. `run` steps up if needed and performs the action; a server that
 * says STEP_UP_REQUIRED (the step-up ran out meanwhile) makes the dialog ask again, and the next
 * confirmation steps up and tries again. It resolves to false while the dialog must stay open.
 */
export function useStepUpForm() {
  const authority = useQuery(engineAuthorityQuery());
  const stepUp = useStepUp();
  const [values, setValues] = useState<Record<Field, string>>({ password: '', otp: '', recovery_code: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [otpStep, setOtpStep] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const [lapsed, setLapsed] = useState(false);
  const needPassword = lapsed || !isSteppedUp(authority.data?.stepped_up_until);

  const reset = () => {
    setValues({ password: '', otp: '', recovery_code: '' });
    setErrors({});
    setOtpStep(false);
    setRecovery(false);
  };

  /** What the step-up sends: the password, then with the code or the recovery code. */
  const toSend = () => {
    if (!otpStep) return { password: values.password };
    return recovery
      ? { password: values.password, recovery_code: values.recovery_code }
      : { password: values.password, otp: values.otp };
  };

  /** Steps up; false when the dialog has to ask for something first. */
  const elevate = async () => {
    try {
      await stepUp.mutateAsync(toSend());
    } catch (e) {
      if (codeOf(e) === 'OTP_REQUIRED') setOtpStep(true);
      else if (e instanceof ApiClientError && (e.errors.password || e.errors.otp || e.errors.recovery_code))
        setErrors({ password: e.errors.password, otp: e.errors.otp, recovery_code: e.errors.recovery_code });
      else throw e;
      return false;
    }
    setLapsed(false);
    return true;
  };

  const run = async (action: () => Promise<unknown>) => {
    setErrors({});
    if (needPassword && !(await elevate())) return false;
    try {
      await action();
    } catch (e) {
      if (codeOf(e) !== 'STEP_UP_REQUIRED') throw e;
      reset();
      setLapsed(true);
      return false;
    }
    reset();
    return true;
  };

  return {
    needPassword,
    otpStep: needPassword && otpStep,
    /** On the code step: a recovery code instead of the app's code. */
    recovery,
    toggleRecovery: () => {
      setRecovery(!recovery);
      setErrors({});
    },
    /** Something the user still has to type before confirming. */
    incomplete:
      needPassword && (values.password === '' || (otpStep && values[recovery ? 'recovery_code' : 'otp'].trim() === '')),
    field: (name: Field) => ({
      value: values[name],
      error: errors[name],
      onChange: (e: { currentTarget: { value: string } }) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [name]: value }));
      },
    }),
    run,
  };
}
