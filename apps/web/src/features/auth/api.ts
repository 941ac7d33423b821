import { fieldErrors, login, LoginRequest, type CallRequest } from '@fleet/contract';
import { callApi } from '../../lib/api-client';

/**
 * The login call and the check of its form. The login form imports this module lazily, so zod,
 * the contract's schemas and the API client stay out of the first screen; coming through the
 * contract's index, it also applies zod's Japanese messages before anything validates.
 */
export type LoginForm = CallRequest<typeof login>;
export type LoginErrors = Partial<Record<keyof LoginForm, string>>;

/** The form checked by the contract's schema: the values to send, or the first message per field. */
export function checkLogin(values: LoginForm): { data: LoginForm | null; errors: LoginErrors } {
  const parsed = LoginRequest.safeParse(values);
  return parsed.success ? { data: parsed.data, errors: {} } : { data: null, errors: fieldErrors(parsed.error) };
}

export const postLogin = (values: LoginForm) => callApi(login, values);
