import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiClientError } from '../../lib/api-error';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session-store';
import type * as LoginApi from './api';
import type { LoginErrors, LoginForm } from './api';

let loading: Promise<typeof LoginApi> | undefined;

/**
 * The login call and its schema (zod) load when the user starts on the form, at the latest on
 * submit: the login screen is the first one, and nothing on it needs them before that.
 */
export const loadLoginApi = () =>
  (loading ??= import('./api').catch((e: unknown) => {
    loading = undefined;
    throw e;
  }));

/** The server asks for the 6-digit code: the password was right and the account has 二段階認証 on. */
const isOtpRequired = (e: unknown) => e instanceof ApiClientError && e.code === 'OTP_REQUIRED';

/**
 * State of the login form: its fields, the contract's messages under them and the login call. For an
 * account with 二段階認証 the form has a second step: the same call again, with the code.
 */
export function useLoginForm() {
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const [values, setValues] = useState<LoginForm>({ username: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [otpStep, setOtpStep] = useState(false);
  /** On the code step: a recovery code instead of the app's code. */
  const [recovery, setRecovery] = useState(false);
  const mutation = useMutation({
    mutationFn: async (v: LoginForm) => (await loadLoginApi()).postLogin(v),
    onSuccess: async (res) => {
      signIn(res);
      await navigate(paths.car.list, { replace: true });
    },
    onError: (e) => {
      if (isOtpRequired(e)) setOtpStep(true);
      else if (e instanceof ApiClientError && (e.errors.otp || e.errors.recovery_code))
        setErrors((prev) => ({ ...prev, otp: e.errors.otp, recovery_code: e.errors.recovery_code }));
    },
  });

  /** What the form sends: the code (or the recovery code) only on the code step. */
  const toSend = (v: LoginForm): LoginForm => {
    const first = { username: v.username, password: v.password };
    if (!otpStep) return first;
    return recovery ? { ...first, recovery_code: v.recovery_code ?? '' } : { ...first, otp: v.otp ?? '' };
  };

  const field = (name: keyof LoginForm) => ({
    name,
    value: values[name] ?? '',
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: e.currentTarget.value };
      setValues(next);
      // Once submitted, a field checks itself again as it changes.
      if (submitted)
        void loadLoginApi().then((api) =>
          setErrors((prev) => ({ ...prev, [name]: api.checkLogin(toSend(next)).errors[name] })),
        );
    },
  });

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setSubmitted(true);
    const checked = (await loadLoginApi()).checkLogin(toSend(values));
    setErrors(checked.errors);
    if (checked.data) return mutation.mutate(checked.data);
    const first = Object.keys(checked.errors)[0];
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
  };

  /** Switches the code step between the app's code and a recovery code. */
  const toggleRecovery = () => {
    setRecovery(!recovery);
    setErrors({});
    mutation.reset();
  };

  /** Back from the code step to the first one (another account, say). */
  const restart = () => {
    setOtpStep(false);
    setRecovery(false);
    setValues((v) => ({ username: v.username, password: '' }));
    setErrors({});
    setSubmitted(false);
    mutation.reset();
  };

  return { field, submit, mutation, otpStep, recovery, toggleRecovery, restart };
}
