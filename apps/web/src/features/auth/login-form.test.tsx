import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../lib/session-store';
import { renderRoutes } from '../../testing/render';
import { LoginForm } from './login-form';
import { loadLoginApi } from './use-login-form';

const renderLogin = () =>
  renderRoutes([
    { path: '/', element: <LoginForm /> },
    { path: '/car/car_list', element: <p>車両一覧</p> },
  ]);
const answer = (status: number, body: unknown) =>
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status }));

// The form loads its schema lazily; transforming zod and the contract on first use is slow here.
beforeAll(() => loadLoginApi(), 60_000);

afterEach(() => {
  vi.restoreAllMocks();
  useSession.getState().signOut();
});

describe('LoginForm (SPEC.md §4, §5)', () => {
  it('shows the required message under both fields, then drops each as it is filled in', async () => {
    const fetch = answer(200, {});
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findAllByText('必須項目です')).toHaveLength(2);
    expect(screen.getByLabelText('ログインID またはメールアドレス')).toHaveFocus();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), 'tokyo-staff');
    await waitFor(() => expect(screen.getAllByText('必須項目です')).toHaveLength(1));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('signs in with the trimmed ID and goes to the vehicle list', async () => {
    const fetch = answer(200, { id: 'a1', username: 'tokyo-staff', role: 2, token: 't', company_id: 'c1' });
    const { router } = renderLogin();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), ' tokyo-staff ');
    await userEvent.type(screen.getByLabelText('パスワード'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/car/car_list'));
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ username: 'tokyo-staff', password: 'secret' });
    expect(useSession.getState()).toMatchObject({ account_id: 'a1', token: 't', role: 2 });
  });

  it("says the login failed in the spec's words on 401", async () => {
    answer(401, { code: 'UNAUTHORIZED', message: 'unauthorized' });
    renderLogin();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), 'tokyo-staff');
    await userEvent.type(screen.getByLabelText('パスワード'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ログインに失敗しました。ログイン情報を確認してください。');
  });
});
