import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { TotpSection } from './totp-section';

const staff = { account_id: 'staff-a', role: 2, company_id: 'company-a' };
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

afterEach(() => vi.restoreAllMocks());

type Answer = [status: number, body: unknown];
/** Answers each call by its path; a list is used up in order and its last answer repeats. */
function serveApi(routes: Record<string, Answer[]>) {
  const calls: { path: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = String(input);
    calls.push({ path, body: JSON.parse(String(init?.body ?? '{}')) });
    const answers = routes[path] ?? [[404, { code: 'NOT_FOUND', message: path }]];
    const [status, body] = answers.length > 1 ? answers.shift()! : answers[0]!;
    return new Response(JSON.stringify(body), { status });
  });
  return { bodiesOf: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body) };
}

describe('TotpSection (二段階認証)', () => {
  it('sets up: QR code and key, then the code confirms it', async () => {
    const api = serveApi({
      '/api/totp_status': [
        [200, { enabled: false, required: false }],
        [200, { enabled: true, required: false }],
      ],
      '/api/totp_setup': [[200, { secret, otpauth_url: `otpauth://totp/x:staff-a?secret=${secret}&issuer=x` }]],
      '/api/totp_enable': [
        [
          400,
          {
            code: 'BAD_REQUEST',
            message: '確認コードが正しくありません。',
            errors: { otp: '確認コードが正しくありません。' },
          },
        ],
        [200, { ok: true }],
      ],
    });
    renderWithProviders(<TotpSection actor={staff} />);
    await userEvent.click(await screen.findByRole('button', { name: '二段階認証を設定する' }));
    expect(await screen.findByRole('img', { name: '二段階認証の設定用QRコード' })).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await userEvent.type(screen.getByLabelText(/確認コード/), '12a');
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(await screen.findByText('6桁の数字で入力してください')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/確認コード/));
    await userEvent.type(screen.getByLabelText(/確認コード/), '123456');
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(await screen.findByText('確認コードが正しくありません。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '確認して有効にする' }));
    expect(
      await screen.findByText('二段階認証を有効にしました。次回のログインから確認コードが必要です。'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('有効')).toBeInTheDocument());
    expect(api.bodiesOf('/api/totp_enable')).toEqual([{ otp: '123456' }, { otp: '123456' }]);
  });

  it('turns it off with the password and a code', async () => {
    const api = serveApi({
      '/api/totp_status': [
        [200, { enabled: true, required: false }],
        [200, { enabled: false, required: false }],
      ],
      '/api/totp_disable': [[200, { ok: true }]],
    });
    renderWithProviders(<TotpSection actor={staff} />);
    await userEvent.type(await screen.findByLabelText(/パスワード/), 'fixture-pass');
    await userEvent.type(screen.getByLabelText(/確認コード/), '654321');
    await userEvent.click(screen.getByRole('button', { name: '無効にする' }));
    expect(await screen.findByText('二段階認証を無効にしました。')).toBeInTheDocument();
    expect(api.bodiesOf('/api/totp_disable')).toEqual([{ password: 'fixture-pass', otp: '654321' }]);
  });
});
