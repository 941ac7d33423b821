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

describe('LoginForm (docs/product.md §4, §5)', () => {
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
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({
      username: 'tokyo-staff',
      password: 'secret',
    });
    expect(useSession.getState()).toMatchObject({ account_id: 'a1', token: 't', role: 2 });
  });

  it('asks for the 6-digit code after OTP_REQUIRED, then signs in with it (二段階認証)', async () => {
    const answers: [number, unknown][] = [
      [401, { code: 'OTP_REQUIRED', message: '認証アプリに表示されている6桁の確認コードを入力してください。' }],
      [
        401,
        {
          code: 'UNAUTHORIZED',
          message: '確認コードが正しくありません。',
          errors: { otp: '確認コードが正しくありません。' },
        },
      ],
      [200, { id: 'a1', username: 'tokyo-staff', role: 2, token: 't', company_id: 'c1' }],
    ];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const [status, body] = answers.shift()!;
      return new Response(JSON.stringify(body), { status });
    });
    const { router } = renderLogin();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), 'tokyo-staff');
    await userEvent.type(screen.getByLabelText('パスワード'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    const code = await screen.findByLabelText('確認コード（6桁）');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    expect(await screen.findByText('必須項目です')).toBeInTheDocument();
    await userEvent.type(code, '12345');
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    expect(await screen.findByText('6桁の数字で入力してください')).toBeInTheDocument();
    await userEvent.type(code, '6');
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('確認コードが正しくありません。');
    await userEvent.clear(code);
    await userEvent.type(code, '654321');
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/car/car_list'));
    expect(fetch.mock.calls.map((c) => JSON.parse(c[1]!.body as string) as unknown)).toEqual([
      { username: 'tokyo-staff', password: 'secret' },
      { username: 'tokyo-staff', password: 'secret', otp: '123456' },
      { username: 'tokyo-staff', password: 'secret', otp: '654321' },
    ]);
  });

  it('takes a recovery code in place of the code, and says when the code was used already', async () => {
    const used = 'このコードは使用済みです。次のコードを入力してください。';
    const answers: [number, unknown][] = [
      [401, { code: 'OTP_REQUIRED', message: '認証アプリに表示されている6桁の確認コードを入力してください。' }],
      [401, { code: 'UNAUTHORIZED', message: used, errors: { otp: used } }],
      [200, { id: 'a1', username: 'tokyo-staff', role: 2, token: 't', company_id: 'c1' }],
    ];
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const [status, body] = answers.shift()!;
      return new Response(JSON.stringify(body), { status });
    });
    const { router } = renderLogin();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), 'tokyo-staff');
    await userEvent.type(screen.getByLabelText('パスワード'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    await userEvent.type(await screen.findByLabelText('確認コード（6桁）'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(used);
    await userEvent.click(screen.getByRole('button', { name: 'リカバリーコードを使う' }));
    await userEvent.type(await screen.findByLabelText('リカバリーコード'), 'ABCD EFGH-2345-6723');
    await userEvent.click(screen.getByRole('button', { name: '確認してログイン' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/car/car_list'));
    expect(fetch.mock.calls.map((c) => JSON.parse(c[1]!.body as string) as unknown)).toEqual([
      { username: 'tokyo-staff', password: 'secret' },
      { username: 'tokyo-staff', password: 'secret', otp: '123456' },
      { username: 'tokyo-staff', password: 'secret', recovery_code: 'abcdefgh23456723' },
    ]);
  }, 20_000);

  it("says the login failed in the spec's words on 401", async () => {
    answer(401, { code: 'UNAUTHORIZED', message: 'unauthorized' });
    renderLogin();
    await userEvent.type(screen.getByLabelText('ログインID またはメールアドレス'), 'tokyo-staff');
    await userEvent.type(screen.getByLabelText('パスワード'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'ログインに失敗しました。ログイン情報を確認してください。',
    );
  });
});
