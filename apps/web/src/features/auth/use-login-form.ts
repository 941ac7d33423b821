import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
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

/** State of the login form: its fields, the contract's messages under them and the login call. */
export function useLoginForm() {
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const [values, setValues] = useState<LoginForm>({ username: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const mutation = useMutation({
    mutationFn: async (v: LoginForm) => (await loadLoginApi()).postLogin(v),
    onSuccess: async (res) => {
      signIn(res);
      await navigate(paths.car.list, { replace: true });
    },
  });

  const field = (name: keyof LoginForm) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: e.currentTarget.value };
      setValues(next);
      // Once submitted, a field checks itself again as it changes.
      if (submitted) void loadLoginApi().then((api) => setErrors((prev) => ({ ...prev, [name]: api.checkLogin(next).errors[name] })));
    },
  });

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setSubmitted(true);
    const checked = (await loadLoginApi()).checkLogin(values);
    setErrors(checked.errors);
    if (checked.data) return mutation.mutate(checked.data);
    const first = Object.keys(checked.errors)[0];
    if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
  };

  return { field, submit, mutation };
}
